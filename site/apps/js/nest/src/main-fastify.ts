// NestJS on Fastify (targets nest-fastify-node, nest-fastify-bun): the
// same module as main-express.ts on FastifyAdapter, with @fastify/static
// under /static through useStaticAssets.
import { NestFactory } from "@nestjs/core";
import { FastifyAdapter, NestFastifyApplication } from "@nestjs/platform-fastify";
import * as c from "../../contract.js";
import { AppModule, setUp } from "./app.js";

const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter(), { logger: ["error", "warn"] });
app.useStaticAssets({ root: c.STATIC_DIR, prefix: "/static/" });
await setUp(app);
