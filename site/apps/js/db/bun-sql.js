// Bun's own driver: Bun.sql (the SQL class of "bun"), a pool of POOL_SIZE;
// tagged-template queries, which Bun prepares on the server.
import { SQL } from "bun";
import { POOL_SIZE } from "./world.js";

/** open returns the three operations of world.js over a Bun.sql pool on url. */
export function open(url) {
  const sql = new SQL({ url, max: POOL_SIZE });
  return {
    async get(id) {
      const [row] = await sql`SELECT id, randomnumber AS "randomNumber" FROM world WHERE id = ${id}`;
      return row;
    },
    async list(offset, limit) {
      return [...(await sql`SELECT id, randomnumber AS "randomNumber" FROM world ORDER BY id LIMIT ${limit} OFFSET ${offset}`)];
    },
    async insert(randomNumber) {
      const [row] = await sql`INSERT INTO world (randomnumber) VALUES (${randomNumber}) RETURNING id, randomnumber AS "randomNumber"`;
      return row;
    },
  };
}
