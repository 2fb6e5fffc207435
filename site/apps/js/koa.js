// Koa: the contract (../README.md) with @koa/router, @koa/bodyparser, zod
// for the validate route and koa-static mounted under /static.
import Koa from "koa";
import Router from "@koa/router";
import { bodyParser } from "@koa/bodyparser";
import serve from "koa-static";
import mount from "koa-mount";
import * as c from "./contract.js";
import { Person } from "./schema.js";

const app = new Koa();
const router = new Router();

router.get("/", (ctx) => {
  ctx.body = c.PING;
});
router.get("/id/:id", (ctx) => {
  ctx.set("X-Powered-By", c.POWERED_BY);
  ctx.body = `${ctx.params.id} ${ctx.query.name}`;
});
router.post("/json", (ctx) => {
  ctx.body = ctx.request.body;
});
router.get("/plaintext", (ctx) => {
  ctx.body = c.PLAINTEXT;
});
router.get("/json", (ctx) => {
  ctx.body = { message: c.PLAINTEXT };
});
router.get("/sum/:a/:b", (ctx) => {
  const s = c.sum(ctx.params.a, ctx.params.b);
  if (s === undefined) {
    ctx.status = 400;
    ctx.body = c.INVALID_NUMBER;
    return;
  }
  ctx.body = s;
});
router.get("/calc", (ctx) => {
  const q = ctx.query;
  const r = c.calc(q.a, q.b, q.c, q.d);
  if (r === undefined) {
    ctx.status = 400;
    ctx.body = c.INVALID_NUMBER;
    return;
  }
  ctx.body = r;
});
router.post("/api/users/:id", (ctx) => {
  const id = c.parseInteger(ctx.params.id);
  if (id === undefined) {
    ctx.status = 400;
    ctx.body = c.INVALID_NUMBER;
    return;
  }
  ctx.body = c.reshape(id, ctx.get("x-request-id") || "", ctx.query.currency, ctx.request.body);
});
router.post("/validate", (ctx) => {
  const result = Person.safeParse(ctx.request.body);
  if (!result.success) {
    ctx.status = 400;
    ctx.body = c.VALIDATION_FAILED;
    return;
  }
  ctx.body = c.person(result.data);
});

app.use(bodyParser());
app.use(router.routes());
app.use(mount("/static", serve(c.STATIC_DIR)));

app.listen(c.port, c.hostname);
