// Koa with a database (target koa-pg-node): the db, db-list and db-insert
// routes of ../README.md with @koa/router and @koa/bodyparser, over the driver
// its argument names (db/world.js). Like every database target it serves
// those routes alone.
import Koa from "koa";
import Router from "@koa/router";
import { bodyParser } from "@koa/bodyparser";
import * as c from "./contract.js";
import { openWorld, page, randomNumber } from "./db/world.js";

const world = await openWorld(process.argv[2]);
const app = new Koa();
const router = new Router();

function invalid(ctx) {
  ctx.status = 400;
  ctx.body = c.INVALID_NUMBER;
}

router.get("/db/:id", async (ctx) => {
  const id = c.parseInteger(ctx.params.id);
  if (id === undefined) return invalid(ctx);
  const row = await world.get(id);
  if (!row) {
    ctx.status = 404;
    ctx.body = "not found";
    return;
  }
  ctx.body = row;
});
router.get("/db", async (ctx) => {
  const p = page(ctx.query.page, ctx.query.size);
  if (p === undefined) return invalid(ctx);
  ctx.body = await world.list(p.offset, p.limit);
});
router.post("/db", bodyParser(), async (ctx) => {
  const n = randomNumber(ctx.request.body);
  if (n === undefined) return invalid(ctx);
  ctx.status = 201;
  ctx.body = await world.insert(n);
});

app.use(router.routes());
app.listen(c.port, c.hostname);
