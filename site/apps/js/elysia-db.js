// Elysia on Bun with a database (target elysia-bunsql-bun): the db, db-list
// and db-insert routes of ../README.md, Elysia's own body parsing, over the
// driver its argument names (bun-sql, Bun's own; db/world.js). Like every
// database target it serves those routes alone.
import { Elysia } from "elysia";
import * as c from "./contract.js";
import { openWorld, page, randomNumber } from "./db/world.js";

const world = await openWorld(process.argv[2]);

new Elysia()
  .get("/db/:id", async ({ params, status }) => {
    const id = c.parseInteger(params.id);
    if (id === undefined) return status(400, c.INVALID_NUMBER);
    return (await world.get(id)) ?? status(404, "not found");
  })
  .get("/db", async ({ query, status }) => {
    const p = page(query.page, query.size);
    if (p === undefined) return status(400, c.INVALID_NUMBER);
    return world.list(p.offset, p.limit);
  })
  .post("/db", async ({ body, status }) => {
    const n = randomNumber(body);
    if (n === undefined) return status(400, c.INVALID_NUMBER);
    return status(201, await world.insert(n));
  })
  .listen({ hostname: c.hostname, port: c.port });
