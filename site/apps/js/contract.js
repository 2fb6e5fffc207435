// What every JavaScript target does the same way: the fixed strings, the
// integer rule, the querystring arithmetic, the api reshaping and the address
// to listen on ($HOST, $PORT). Routing, reading the request, validation and
// writing the answer stay in each framework's own file, done the way that
// framework's documentation shows. The contract is written down in
// ../README.md.
import { fileURLToPath } from "node:url";
import { dirname, join } from "node:path";

export const PING = "Hi";
export const PLAINTEXT = "Hello, World!";
export const POWERED_BY = "benchmark";
export const INVALID_NUMBER = "invalid number";
export const VALIDATION_FAILED = { error: "validation failed" };

/** STATIC_DIR is the absolute path of the static scenario's files. */
export const STATIC_DIR = join(dirname(fileURLToPath(import.meta.url)), "..", "static");

/** port is $PORT, or 3000. */
export const port = Number(process.env.PORT || 3000);
/**
 * hostname is $HOST, or 127.0.0.1 when unset or empty: the address the load
 * generator reaches (loopback, or the server host's address when it runs on
 * another host). An IPv6 address comes bare (::1), as every listen call here
 * takes it. There is no wildcard default.
 */
export const hostname = process.env.HOST || "127.0.0.1";

const INTEGER = /^-?[0-9]{1,6}$/;

/** parseInteger reads an optional '-' then 1 to 6 digits; anything else is undefined. */
export function parseInteger(s) {
  return typeof s === "string" && INTEGER.test(s) ? Number(s) : undefined;
}

/** sum is the params scenario: a+b as decimal text, undefined when either is no integer. */
export function sum(a, b) {
  const x = parseInteger(a);
  const y = parseInteger(b);
  return x === undefined || y === undefined ? undefined : String(x + y);
}

/** calc is the querystring scenario: a*b + c - d, absent or empty parameters taking 1, 2, 3, 4. */
export function calc(a, b, c, d) {
  const v = [a, b, c, d].map((s, i) => (s === undefined || s === null || s === "" ? i + 1 : parseInteger(s)));
  if (v.includes(undefined)) return undefined;
  return String(v[0] * v[1] + v[2] - v[3]);
}

/** reshape builds the api scenario's receipt; currency is "USD" when absent or empty. */
export function reshape(id, requestId, currency, order) {
  const lines = (order?.items ?? []).map((it) => ({ sku: it.sku, qty: it.qty, subtotal_cents: it.qty * it.price_cents }));
  return {
    id,
    request_id: requestId ?? "",
    currency: currency || "USD",
    customer: { name: order?.user?.name ?? "", email: order?.user?.email ?? "" },
    lines,
    item_count: lines.reduce((n, l) => n + l.qty, 0),
    total_cents: lines.reduce((n, l) => n + l.subtotal_cents, 0),
  };
}

/** person is the validate scenario's answer: the three fields, in this order. */
export function person(p) {
  return { name: p.name, email: p.email, age: p.age };
}
