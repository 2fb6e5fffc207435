// Hono on Node (target hono-node): hono-app.js with @hono/node-server.
import { serve } from "@hono/node-server";
import { serveStatic } from "@hono/node-server/serve-static";
import { app } from "./hono-app.js";
import { hostname, port } from "./contract.js";

serve({ fetch: app(serveStatic).fetch, hostname, port });
