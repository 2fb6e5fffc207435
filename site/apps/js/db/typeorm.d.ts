// Types of typeorm.js for TypeScript callers (the NestJS targets).
import type { DataSourceOptions, EntitySchema, Repository } from "typeorm";
import type { WorldOperations, WorldRow } from "./world.js";

export declare const World: EntitySchema<WorldRow>;
export declare function dataSourceOptions(url: string): DataSourceOptions;
export declare function operations(repo: Repository<WorldRow>): WorldOperations;
export declare function open(url: string): Promise<WorldOperations>;
