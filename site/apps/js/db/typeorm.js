// The ORM of the ORM-cost table, and the module the NestJS targets import:
// TypeORM with table world declared as an EntitySchema (plain JavaScript
// needs no decorators; @nestjs/typeorm takes an EntitySchema wherever it
// takes an entity class), a DataSource on the postgres driver (pg inside)
// with a pool of POOL_SIZE, and the three operations through a Repository
// as TypeORM's documentation shows: findOneBy, find with order/skip/take,
// save (which TypeORM runs in a transaction: BEGIN, INSERT … RETURNING id,
// COMMIT — part of what the table measures).
//
// NestJS wiring:
//   TypeOrmModule.forRoot(dataSourceOptions(process.env.DATABASE_URL))
//   TypeOrmModule.forFeature([World])
//   constructor(@InjectRepository(World) repo) { this.world = operations(repo) }
import { DataSource, EntitySchema } from "typeorm";
import { POOL_SIZE } from "./world.js";

/** World is table world (../../db/world.sql) as a TypeORM entity. */
export const World = new EntitySchema({
  name: "World",
  tableName: "world",
  columns: {
    id: { type: "int", primary: true, generated: "identity", generatedIdentity: "ByDefault" },
    randomNumber: { type: "int", name: "randomnumber" },
  },
});

/** dataSourceOptions are the DataSource (or TypeOrmModule.forRoot) options for url. */
export function dataSourceOptions(url) {
  return { type: "postgres", url, entities: [World], poolSize: POOL_SIZE, synchronize: false, logging: false };
}

/** row is an entity as the contract writes it: id, then randomNumber. */
function row(e) {
  return e ? { id: e.id, randomNumber: e.randomNumber } : undefined;
}

/** operations returns the three operations of world.js over a Repository of World. */
export function operations(repo) {
  return {
    async get(id) {
      return row(await repo.findOneBy({ id }));
    },
    async list(offset, limit) {
      return (await repo.find({ order: { id: "ASC" }, skip: offset, take: limit })).map(row);
    },
    async insert(randomNumber) {
      return row(await repo.save(repo.create({ randomNumber })));
    },
  };
}

/** open initializes a DataSource on url and returns its operations. */
export async function open(url) {
  const ds = await new DataSource(dataSourceOptions(url)).initialize();
  return operations(ds.getRepository(World));
}
