// Types of world.js for TypeScript callers (the NestJS targets).

/** WorldRow is one row of table world as every target answers it. */
export interface WorldRow {
  id: number;
  randomNumber: number;
}

/** WorldOperations are the three database operations every driver module returns. */
export interface WorldOperations {
  get(id: number): Promise<WorldRow | undefined>;
  list(offset: number, limit: number): Promise<WorldRow[]>;
  insert(randomNumber: number): Promise<WorldRow>;
}

export declare const POOL_SIZE: number;
export declare const PAGE_SIZE: number;
export declare const MAX_PAGE_SIZE: number;
export declare const MAX_RANDOM_NUMBER: number;
export declare function databaseURL(): string;
export declare function page(pageParam?: string | null, sizeParam?: string | null): { offset: number; limit: number } | undefined;
export declare function randomNumber(body: unknown): number | undefined;
export declare function openWorld(driver: "pg" | "bun-sql" | "drizzle" | "typeorm"): Promise<WorldOperations>;
