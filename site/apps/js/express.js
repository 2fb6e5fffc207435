// Express: the contract (../README.md) with express.Router routes,
// express.json, zod for the validate route and express.static. The same
// file runs on Node (target express-node) and on Bun (express-bun).
import express from "express";
import * as c from "./contract.js";
import { Person } from "./schema.js";

const app = express();
app.use(express.json());

app.get("/", (req, res) => {
  res.type("text/plain").send(c.PING);
});
app.get("/id/:id", (req, res) => {
  res.set("X-Powered-By", c.POWERED_BY).type("text/plain").send(`${req.params.id} ${req.query.name}`);
});
app.post("/json", (req, res) => {
  res.json(req.body);
});
app.get("/plaintext", (req, res) => {
  res.type("text/plain").send(c.PLAINTEXT);
});
app.get("/json", (req, res) => {
  res.json({ message: c.PLAINTEXT });
});
app.get("/sum/:a/:b", (req, res) => {
  const s = c.sum(req.params.a, req.params.b);
  if (s === undefined) return res.status(400).type("text/plain").send(c.INVALID_NUMBER);
  res.type("text/plain").send(s);
});
app.get("/calc", (req, res) => {
  const { a, b, c: cc, d } = req.query;
  const r = c.calc(a, b, cc, d);
  if (r === undefined) return res.status(400).type("text/plain").send(c.INVALID_NUMBER);
  res.type("text/plain").send(r);
});
app.post("/api/users/:id", (req, res) => {
  const id = c.parseInteger(req.params.id);
  if (id === undefined) return res.status(400).type("text/plain").send(c.INVALID_NUMBER);
  res.json(c.reshape(id, req.get("x-request-id"), req.query.currency, req.body));
});
app.post("/validate", (req, res) => {
  const result = Person.safeParse(req.body);
  if (!result.success) return res.status(400).json(c.VALIDATION_FAILED);
  res.json(c.person(result.data));
});
app.use("/static", express.static(c.STATIC_DIR));

app.listen(c.port, c.hostname);
