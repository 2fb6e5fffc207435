// The validate scenario's schema in zod, for the targets whose framework
// has no validator of its own (Bun.serve, Express, Koa) and for Hono's
// zod-validator middleware. Elysia (TypeBox) and Fastify (JSON Schema) state
// the same rules in their own schema languages.
import { z } from "zod";

export const Person = z.object({
  name: z.string().min(1).max(64),
  email: z.email(),
  age: z.int().min(1).max(150),
});
