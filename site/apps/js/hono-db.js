// Hono with a database: the routes of the db, db-list and db-insert
// scenarios (../README.md) on a Hono app, over any driver of db/ (db/world.js
// says what each returns). hono-db-node.js and hono-db-bun.js serve them
// alone, as every database target serves only the database routes.
import * as c from "./contract.js";
import { page, randomNumber } from "./db/world.js";

/** dbRoutes adds GET /db/:id, GET /db and POST /db over world to the Hono app h. */
export function dbRoutes(h, world) {
  h.get("/db/:id", async (ctx) => {
    const id = c.parseInteger(ctx.req.param("id"));
    if (id === undefined) return ctx.text(c.INVALID_NUMBER, 400);
    const row = await world.get(id);
    return row ? ctx.json(row) : ctx.text("not found", 404);
  });
  h.get("/db", async (ctx) => {
    const p = page(ctx.req.query("page"), ctx.req.query("size"));
    if (p === undefined) return ctx.text(c.INVALID_NUMBER, 400);
    return ctx.json(await world.list(p.offset, p.limit));
  });
  h.post("/db", async (ctx) => {
    let body;
    try {
      body = await ctx.req.json();
    } catch {
      return ctx.text("invalid json", 400);
    }
    const n = randomNumber(body);
    if (n === undefined) return ctx.text(c.INVALID_NUMBER, 400);
    return ctx.json(await world.insert(n), 201);
  });
  return h;
}
