// Hono on Node with a database (targets hono-pg-node, hono-drizzle-node,
// hono-typeorm-node): hono-db.js's routes alone on @hono/node-server, over
// the driver its argument names (pg, drizzle or typeorm; db/world.js).
import { serve } from "@hono/node-server";
import { Hono } from "hono";
import { dbRoutes } from "./hono-db.js";
import { openWorld } from "./db/world.js";
import { hostname, port } from "./contract.js";

const h = dbRoutes(new Hono(), await openWorld(process.argv[2]));
serve({ fetch: h.fetch, hostname, port });
