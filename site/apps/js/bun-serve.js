// Bun.serve alone (target bun-serve): the contract (../README.md) with
// Bun.serve's routes table, Response.json, zod for the validate route and
// Bun.file for static files.
import { join } from "node:path";
import * as c from "./contract.js";
import { Person } from "./schema.js";

const text = (body, status = 200, headers = {}) =>
  new Response(body, { status, headers: { "content-type": "text/plain; charset=utf-8", ...headers } });

async function readJSON(req) {
  try {
    return { ok: true, value: await req.json() };
  } catch {
    return { ok: false };
  }
}

Bun.serve({
  hostname: c.hostname,
  port: c.port,
  routes: {
    "/": { GET: () => text(c.PING) },
    "/id/:id": {
      GET: (req) => {
        const name = new URL(req.url).searchParams.get("name");
        return text(`${req.params.id} ${name}`, 200, { "x-powered-by": c.POWERED_BY });
      },
    },
    "/json": {
      GET: () => Response.json({ message: c.PLAINTEXT }),
      POST: async (req) => {
        const body = await readJSON(req);
        return body.ok ? Response.json(body.value) : text("invalid json", 400);
      },
    },
    "/plaintext": { GET: () => text(c.PLAINTEXT) },
    "/sum/:a/:b": {
      GET: (req) => {
        const s = c.sum(req.params.a, req.params.b);
        return s === undefined ? text(c.INVALID_NUMBER, 400) : text(s);
      },
    },
    "/calc": {
      GET: (req) => {
        const q = new URL(req.url).searchParams;
        const r = c.calc(q.get("a"), q.get("b"), q.get("c"), q.get("d"));
        return r === undefined ? text(c.INVALID_NUMBER, 400) : text(r);
      },
    },
    "/api/users/:id": {
      POST: async (req) => {
        const id = c.parseInteger(req.params.id);
        if (id === undefined) return text(c.INVALID_NUMBER, 400);
        const order = await readJSON(req);
        if (!order.ok) return text("invalid json", 400);
        const currency = new URL(req.url).searchParams.get("currency");
        return Response.json(c.reshape(id, req.headers.get("x-request-id"), currency, order.value));
      },
    },
    "/validate": {
      POST: async (req) => {
        const body = await readJSON(req);
        const result = body.ok ? Person.safeParse(body.value) : { success: false };
        if (!result.success) return Response.json(c.VALIDATION_FAILED, { status: 400 });
        return Response.json(c.person(result.data));
      },
    },
    "/static/:file": {
      GET: async (req) => {
        const name = req.params.file;
        if (name.includes("/") || name.startsWith(".")) return text("not found", 404);
        const file = Bun.file(join(c.STATIC_DIR, name));
        return (await file.exists()) ? new Response(file) : text("not found", 404);
      },
    },
  },
  fetch: () => text("not found", 404),
});
