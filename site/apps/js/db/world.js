// What every JavaScript database target does the same way, whatever its
// driver: the pool size, the paged list's query parameters and the insert's
// body rule (the contract: ../../README.md, scenarios db, db-list and
// db-insert). Each driver module (pg.js, bun-sql.js, drizzle.js,
// typeorm.js) returns the same three operations over table world:
//
//   get(id)              the row, or undefined when there is none
//   list(offset, limit)  rows in id order
//   insert(randomNumber) the inserted row as the database returned it
//
// each row an object {id, randomNumber} in that key order.
import { parseInteger } from "../contract.js";

/** POOL_SIZE is the number of connections every target keeps. */
export const POOL_SIZE = 20;
export const PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;
export const MAX_RANDOM_NUMBER = 10000;

/** databaseURL is $DATABASE_URL; without it a target cannot start. */
export function databaseURL() {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error("DATABASE_URL is not set: the database targets need PostgreSQL (site/suites/db.toml)");
  return url;
}

/**
 * page reads the paged list's query: page from 1 (default 1), size from 1 to
 * MAX_PAGE_SIZE (default PAGE_SIZE), each absent, empty or an integer. It
 * returns the rows to skip and take, or undefined.
 */
export function page(pageParam, sizeParam) {
  const p = pageParam ? parseInteger(pageParam) : 1;
  const s = sizeParam ? parseInteger(sizeParam) : PAGE_SIZE;
  if (p === undefined || s === undefined || p < 1 || s < 1 || s > MAX_PAGE_SIZE) return undefined;
  return { offset: (p - 1) * s, limit: s };
}

/** randomNumber is the insert body's randomNumber when it is a JSON integer from 1 to MAX_RANDOM_NUMBER. */
export function randomNumber(body) {
  const n = body?.randomNumber;
  return Number.isInteger(n) && n >= 1 && n <= MAX_RANDOM_NUMBER ? n : undefined;
}

/** openWorld loads the named driver module and opens its pool on $DATABASE_URL. */
export async function openWorld(driver) {
  const modules = {
    pg: "./pg.js",
    "bun-sql": "./bun-sql.js",
    drizzle: "./drizzle.js",
    typeorm: "./typeorm.js",
  };
  if (!modules[driver]) throw new Error(`unknown driver ${JSON.stringify(driver)}: use one of ${Object.keys(modules).join(", ")}`);
  const m = await import(modules[driver]);
  return m.open(databaseURL());
}
