// Fastify: the contract (../README.md) with fastify routes, its built-in
// JSON Schema validation (Ajv) on the validate route and @fastify/static.
import Fastify from "fastify";
import fastifyStatic from "@fastify/static";
import * as c from "./contract.js";

// Ajv's type coercion is off so that a number is not taken for a string,
// as no other target does.
const app = Fastify({ ajv: { customOptions: { coerceTypes: false } } });

const person = {
  type: "object",
  required: ["name", "email", "age"],
  properties: {
    name: { type: "string", minLength: 1, maxLength: 64 },
    email: { type: "string", format: "email" },
    age: { type: "integer", minimum: 1, maximum: 150 },
  },
};

app.get("/", () => c.PING);
app.get("/id/:id", (req, reply) => {
  reply.header("x-powered-by", c.POWERED_BY);
  return `${req.params.id} ${req.query.name}`;
});
app.post("/json", (req) => req.body);
app.get("/plaintext", () => c.PLAINTEXT);
app.get("/json", () => ({ message: c.PLAINTEXT }));
app.get("/sum/:a/:b", (req, reply) => {
  const s = c.sum(req.params.a, req.params.b);
  if (s === undefined) return reply.code(400).send(c.INVALID_NUMBER);
  return s;
});
app.get("/calc", (req, reply) => {
  const q = req.query;
  const r = c.calc(q.a, q.b, q.c, q.d);
  if (r === undefined) return reply.code(400).send(c.INVALID_NUMBER);
  return r;
});
app.post("/api/users/:id", (req, reply) => {
  const id = c.parseInteger(req.params.id);
  if (id === undefined) return reply.code(400).send(c.INVALID_NUMBER);
  return c.reshape(id, req.headers["x-request-id"], req.query.currency, req.body);
});
app.post("/validate", { schema: { body: person }, attachValidation: true }, (req, reply) => {
  if (req.validationError) return reply.code(400).send(c.VALIDATION_FAILED);
  return c.person(req.body);
});
app.register(fastifyStatic, { root: c.STATIC_DIR, prefix: "/static/" });

await app.listen({ port: c.port, host: c.hostname });
