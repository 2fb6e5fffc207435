// Elysia: the contract (../README.md) as one Elysia app with its TypeBox
// schema (t) on the validate route and @elysiajs/static, served on Bun by
// elysia.js and on Node by elysia-node.js (the @elysiajs/node adapter).
import { Elysia, t } from "elysia";
import { staticPlugin } from "@elysiajs/static";
import * as c from "./contract.js";

const person = t.Object({
  name: t.String({ minLength: 1, maxLength: 64 }),
  email: t.String({ format: "email" }),
  age: t.Integer({ minimum: 1, maximum: 150 }),
});

/**
 * app returns the Elysia app on the given adapter (Elysia's default: Bun),
 * with staticHeaders added to every static file's response.
 */
export async function app(adapter, staticHeaders) {
  return new Elysia({ adapter })
    .get("/", () => c.PING)
    .get("/id/:id", ({ params, query, set }) => {
      set.headers["x-powered-by"] = c.POWERED_BY;
      return `${params.id} ${query.name}`;
    })
    .post("/json", ({ body }) => body)
    .get("/plaintext", () => c.PLAINTEXT)
    .get("/json", () => ({ message: c.PLAINTEXT }))
    .get("/sum/:a/:b", ({ params, status }) => c.sum(params.a, params.b) ?? status(400, c.INVALID_NUMBER))
    .get("/calc", ({ query: q, status }) => c.calc(q.a, q.b, q.c, q.d) ?? status(400, c.INVALID_NUMBER))
    .post("/api/users/:id", ({ params, query, headers, body, status }) => {
      const id = c.parseInteger(params.id);
      if (id === undefined) return status(400, c.INVALID_NUMBER);
      return c.reshape(id, headers["x-request-id"], query.currency, body);
    })
    .post("/validate", ({ body }) => c.person(body), {
      body: person,
      error({ code, status }) {
        if (code === "VALIDATION") return status(400, c.VALIDATION_FAILED);
      },
    })
    .use(await staticPlugin({ assets: c.STATIC_DIR, prefix: "/static", headers: staticHeaders }));
}
