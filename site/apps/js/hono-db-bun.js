// Hono on Bun with a database (targets hono-pg-bun, hono-bunsql-bun):
// hono-db.js's routes alone on Bun.serve, over the driver its
// argument names (bun-sql, Bun's own; or pg, the Node targets' driver, so that
// hono-pg-node against hono-pg-bun changes the runtime alone).
import { Hono } from "hono";
import { dbRoutes } from "./hono-db.js";
import { openWorld } from "./db/world.js";
import { hostname, port } from "./contract.js";

const h = dbRoutes(new Hono(), await openWorld(process.argv[2]));
Bun.serve({ hostname, port, fetch: h.fetch });
