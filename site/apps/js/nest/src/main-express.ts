// NestJS on Express (targets nest-express-node, nest-express-bun): what
// `nest new` gives, with express.static under /static through
// useStaticAssets.
import { NestFactory } from "@nestjs/core";
import { NestExpressApplication } from "@nestjs/platform-express";
import * as c from "../../contract.js";
import { AppModule, setUp } from "./app.js";

const app = await NestFactory.create<NestExpressApplication>(AppModule, { logger: ["error", "warn"] });
app.useStaticAssets(c.STATIC_DIR, { prefix: "/static/" });
await setUp(app);
