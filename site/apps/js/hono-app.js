// Hono: the contract (../README.md) as one Hono app, served on Bun by
// hono-bun.js and on Node by hono-node.js. Each runtime brings its own
// serveStatic, as Hono's documentation shows; the validate route uses
// @hono/zod-validator.
import { Hono } from "hono";
import { zValidator } from "@hono/zod-validator";
import * as c from "./contract.js";
import { Person } from "./schema.js";

/** app returns the Hono app, static files served by the runtime's serveStatic. */
export function app(serveStatic) {
  const h = new Hono();
  h.get("/", (ctx) => ctx.text(c.PING));
  h.get("/id/:id", (ctx) => {
    ctx.header("X-Powered-By", c.POWERED_BY);
    return ctx.text(`${ctx.req.param("id")} ${ctx.req.query("name")}`);
  });
  h.post("/json", async (ctx) => {
    let body;
    try {
      body = await ctx.req.json();
    } catch {
      return ctx.text("invalid json", 400);
    }
    return ctx.json(body);
  });
  h.get("/plaintext", (ctx) => ctx.text(c.PLAINTEXT));
  h.get("/json", (ctx) => ctx.json({ message: c.PLAINTEXT }));
  h.get("/sum/:a/:b", (ctx) => {
    const s = c.sum(ctx.req.param("a"), ctx.req.param("b"));
    return s === undefined ? ctx.text(c.INVALID_NUMBER, 400) : ctx.text(s);
  });
  h.get("/calc", (ctx) => {
    const q = ctx.req.query();
    const r = c.calc(q.a, q.b, q.c, q.d);
    return r === undefined ? ctx.text(c.INVALID_NUMBER, 400) : ctx.text(r);
  });
  h.post("/api/users/:id", async (ctx) => {
    const id = c.parseInteger(ctx.req.param("id"));
    if (id === undefined) return ctx.text(c.INVALID_NUMBER, 400);
    let order;
    try {
      order = await ctx.req.json();
    } catch {
      return ctx.text("invalid json", 400);
    }
    return ctx.json(c.reshape(id, ctx.req.header("x-request-id"), ctx.req.query("currency"), order));
  });
  h.post(
    "/validate",
    zValidator("json", Person, (result, ctx) => {
      if (!result.success) return ctx.json(c.VALIDATION_FAILED, 400);
    }),
    (ctx) => ctx.json(c.person(ctx.req.valid("json"))),
  );
  h.use(
    "/static/*",
    serveStatic({ root: c.STATIC_DIR, rewriteRequestPath: (path) => path.replace(/^\/static/, "") }),
  );
  return h;
}
