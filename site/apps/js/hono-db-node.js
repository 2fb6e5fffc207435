// Hono on Node with a database (targets hono-pg-node, hono-drizzle-node,
// hono-typeorm-node): hono-app.js with @hono/node-server, plus hono-db.js over
// the driver its argument names (pg, drizzle or typeorm; db/world.js).
import { serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { app } from "./hono-app.js";
import { dbRoutes } from "./hono-db.js";
import { openWorld } from "./db/world.js";
import { hostname, port } from "./contract.js";

const h = dbRoutes(app(serveStatic), await openWorld(process.argv[2]));
serve({ fetch: h.fetch, hostname, port });
