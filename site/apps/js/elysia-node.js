// Elysia on Node (target elysia-node): elysia-app.js on the @elysiajs/node
// adapter, as Elysia's documentation shows for Node. On Node the adapter
// takes a file's type from Elysia's own table of extensions, which has no
// .bin, and would send the file with no content-type (on Bun, Bun.file
// answers application/octet-stream): the static plugin's headers option
// says it.
import { node } from "@elysiajs/node";
import { app } from "./elysia-app.js";
import { hostname, port } from "./contract.js";

(await app(node(), { "content-type": "application/octet-stream" })).listen({ hostname, port });
