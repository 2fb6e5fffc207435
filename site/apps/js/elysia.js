// Elysia on Bun (target elysia-bun): elysia-app.js on Elysia's default
// adapter, Bun's own server.
import { app } from "./elysia-app.js";
import { hostname, port } from "./contract.js";

(await app()).listen({ hostname, port });
