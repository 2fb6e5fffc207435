// The query builder of the ORM-cost table: Drizzle ORM over node-postgres
// (drizzle-orm/node-postgres with a pg.Pool of POOL_SIZE), the table declared
// with pgTable and every operation written with the builder, as Drizzle's
// documentation shows.
import pg from "pg";
import { drizzle } from "drizzle-orm/node-postgres";
import { asc, eq } from "drizzle-orm";
import { integer, pgTable } from "drizzle-orm/pg-core";
import { POOL_SIZE } from "./world.js";

/** world is table world (../../db/world.sql) as Drizzle declares it. */
export const world = pgTable("world", {
  id: integer("id").primaryKey().generatedByDefaultAsIdentity({ startWith: 10001 }),
  randomNumber: integer("randomnumber").notNull(),
});

/** open returns the three operations of world.js over Drizzle on url. */
export function open(url) {
  const db = drizzle({ client: new pg.Pool({ connectionString: url, max: POOL_SIZE }) });
  return {
    async get(id) {
      const [row] = await db.select().from(world).where(eq(world.id, id));
      return row;
    },
    async list(offset, limit) {
      return db.select().from(world).orderBy(asc(world.id)).limit(limit).offset(offset);
    },
    async insert(randomNumber) {
      const [row] = await db.insert(world).values({ randomNumber }).returning();
      return row;
    },
  };
}
