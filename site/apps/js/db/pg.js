// The raw driver on Node (and on Bun, for the runtime comparison): node-postgres
// (pg), a pg.Pool of POOL_SIZE, each statement a named (server-side prepared)
// query as pgx prepares its statements in the Go targets.
import pg from "pg";
import { POOL_SIZE } from "./world.js";

const GET = { name: "world-get", text: 'SELECT id, randomnumber AS "randomNumber" FROM world WHERE id = $1' };
const LIST = { name: "world-list", text: 'SELECT id, randomnumber AS "randomNumber" FROM world ORDER BY id LIMIT $1 OFFSET $2' };
const INSERT = { name: "world-insert", text: 'INSERT INTO world (randomnumber) VALUES ($1) RETURNING id, randomnumber AS "randomNumber"' };

/** open returns the three operations of world.js over a pg.Pool on url. */
export function open(url) {
  const pool = new pg.Pool({ connectionString: url, max: POOL_SIZE });
  return {
    async get(id) {
      return (await pool.query({ ...GET, values: [id] })).rows[0];
    },
    async list(offset, limit) {
      return (await pool.query({ ...LIST, values: [limit, offset] })).rows;
    },
    async insert(randomNumber) {
      return (await pool.query({ ...INSERT, values: [randomNumber] })).rows[0];
    },
  };
}
