// Express with a database (targets express-pg-node and express-pg-bun: the
// same file and driver on two runtimes): the db, db-list and db-insert routes
// of ../README.md with express.json, over the driver its argument names
// (db/world.js). Like every database target it serves those routes alone.
import express from "express";
import * as c from "./contract.js";
import { openWorld, page, randomNumber } from "./db/world.js";

const world = await openWorld(process.argv[2]);
const app = express();

app.get("/db/:id", async (req, res) => {
  const id = c.parseInteger(req.params.id);
  if (id === undefined) return res.status(400).type("text/plain").send(c.INVALID_NUMBER);
  const row = await world.get(id);
  if (!row) return res.status(404).type("text/plain").send("not found");
  res.json(row);
});
app.get("/db", async (req, res) => {
  const p = page(req.query.page, req.query.size);
  if (p === undefined) return res.status(400).type("text/plain").send(c.INVALID_NUMBER);
  res.json(await world.list(p.offset, p.limit));
});
app.post("/db", express.json(), async (req, res) => {
  const n = randomNumber(req.body);
  if (n === undefined) return res.status(400).type("text/plain").send(c.INVALID_NUMBER);
  res.status(201).json(await world.insert(n));
});

app.listen(c.port, c.hostname);
