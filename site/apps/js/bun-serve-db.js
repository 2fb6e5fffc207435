// Bun.serve alone with a database (target bun-serve-bunsql-bun): the db,
// db-list and db-insert routes of ../README.md in Bun.serve's routes table,
// over the driver its argument names (bun-sql, Bun's own; db/world.js). Like
// every database target it serves those routes alone.
import * as c from "./contract.js";
import { openWorld, page, randomNumber } from "./db/world.js";

const world = await openWorld(process.argv[2]);
const text = (body, status) => new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8" } });

Bun.serve({
  hostname: c.hostname,
  port: c.port,
  routes: {
    "/db/:id": {
      GET: async (req) => {
        const id = c.parseInteger(req.params.id);
        if (id === undefined) return text(c.INVALID_NUMBER, 400);
        const row = await world.get(id);
        return row ? Response.json(row) : text("not found", 404);
      },
    },
    "/db": {
      GET: async (req) => {
        const q = new URL(req.url).searchParams;
        const p = page(q.get("page"), q.get("size"));
        if (p === undefined) return text(c.INVALID_NUMBER, 400);
        return Response.json(await world.list(p.offset, p.limit));
      },
      POST: async (req) => {
        let body;
        try {
          body = await req.json();
        } catch {
          return text("invalid json", 400);
        }
        const n = randomNumber(body);
        if (n === undefined) return text(c.INVALID_NUMBER, 400);
        return Response.json(await world.insert(n), { status: 201 });
      },
    },
  },
  fetch: () => text("not found", 404),
});
