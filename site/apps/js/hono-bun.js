// Hono on Bun (target hono-bun): hono-app.js with hono/bun's serveStatic.
import { serveStatic } from "hono/bun";
import { app } from "./hono-app.js";
import { hostname, port } from "./contract.js";

Bun.serve({ hostname, port, fetch: app(serveStatic).fetch });
