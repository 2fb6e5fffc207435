// Fastify with a database (target fastify-pg-node): the db, db-list and
// db-insert routes of ../README.md, fastify's own JSON body parser, over the
// driver its argument names (db/world.js). Like every database target it
// serves those routes alone.
import Fastify from "fastify";
import * as c from "./contract.js";
import { openWorld, page, randomNumber } from "./db/world.js";

const world = await openWorld(process.argv[2]);
const app = Fastify();

app.get("/db/:id", async (req, reply) => {
  const id = c.parseInteger(req.params.id);
  if (id === undefined) return reply.code(400).type("text/plain").send(c.INVALID_NUMBER);
  const row = await world.get(id);
  if (!row) return reply.code(404).type("text/plain").send("not found");
  return row;
});
app.get("/db", async (req, reply) => {
  const p = page(req.query.page, req.query.size);
  if (p === undefined) return reply.code(400).type("text/plain").send(c.INVALID_NUMBER);
  return world.list(p.offset, p.limit);
});
app.post("/db", async (req, reply) => {
  const n = randomNumber(req.body);
  if (n === undefined) return reply.code(400).type("text/plain").send(c.INVALID_NUMBER);
  reply.code(201);
  return world.insert(n);
});

await app.listen({ host: c.hostname, port: c.port });
