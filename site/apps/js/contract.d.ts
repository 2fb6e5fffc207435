// The types of contract.js, for the TypeScript targets (nest/).
export const PING: string;
export const PLAINTEXT: string;
export const POWERED_BY: string;
export const INVALID_NUMBER: string;
export const VALIDATION_FAILED: { error: string };
export const STATIC_DIR: string;
export const port: number;
export const hostname: string;
export function parseInteger(s: unknown): number | undefined;
export function sum(a: unknown, b: unknown): string | undefined;
export function calc(a: unknown, b: unknown, c: unknown, d: unknown): string | undefined;
export function reshape(id: number, requestId: unknown, currency: unknown, order: unknown): object;
export function person(p: { name: string; email: string; age: number }): { name: string; email: string; age: number };
