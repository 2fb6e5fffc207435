// Express: the contract (../README.md) with express.Router routes,
// express.json, zod for the validate route and express.static. The same
// file runs on Node (target express-node) and on Bun (express-bun). With
// STATIC=handler (target express-handler-node) /static is served by the
// hand-written handler below in place of express.static: the static A/B.
import express from "express";
import { createReadStream, promises as fs } from "node:fs";
import { join, normalize, sep } from "node:path";
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
if (process.env.STATIC === "handler") {
  app.get("/static/*file", sendFile);
} else {
  app.use("/static", express.static(c.STATIC_DIR));
}

// sendFile streams a file of STATIC_DIR itself: no ETag, no ranges, no
// index files, only the bytes with their length and type.
async function sendFile(req, res) {
  const rel = normalize(req.path.slice("/static/".length));
  if (rel.startsWith("..") || rel.includes(sep + "..")) return res.status(404).end();
  const path = join(c.STATIC_DIR, rel);
  let st;
  try {
    st = await fs.stat(path);
  } catch {
    return res.status(404).end();
  }
  if (!st.isFile()) return res.status(404).end();
  res.writeHead(200, { "Content-Type": "application/octet-stream", "Content-Length": st.size });
  createReadStream(path).pipe(res);
}

app.listen(c.port, c.hostname);
