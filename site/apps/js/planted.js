// The planted-difference server (site/suites/planted.toml): Node's own http
// module, no framework, answering the ping scenario of ../README.md
// (GET / → 200 "Hi", text/plain; anything else 404). On every request it
// spends a fixed, added amount of CPU: $PLANT_LOOPS iterations of a 32-bit
// linear congruential step (0 or unset: none). Running it at several counts
// plants known differences in server CPU per request, the yardstick of how
// small a difference the publishing host resolves.
import { createServer } from "node:http";
import { PING, hostname, port } from "./contract.js";

const raw = process.env.PLANT_LOOPS || "0";
if (!/^[0-9]{1,9}$/.test(raw)) {
  console.error(`PLANT_LOOPS=${JSON.stringify(raw)}: want a non-negative integer of loop iterations`);
  process.exit(2);
}
const loops = Number(raw);

// sink keeps every request's loop result and seeds the next one, so the
// loop's value is live and the JIT cannot drop the work.
let sink = 1;

/** spin runs n dependent multiply-add steps from seed; each waits on the last. */
function spin(n, seed) {
  let x = seed | 0;
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1103515245) + 12345) | 0;
  }
  return x;
}

createServer((req, res) => {
  if (req.method === "GET" && req.url === "/") {
    sink = spin(loops, sink);
    res.statusCode = 200;
    res.setHeader("content-type", "text/plain");
    res.end(PING);
    return;
  }
  res.statusCode = 404;
  res.setHeader("content-type", "text/plain");
  res.end("not found");
}).listen(port, hostname);
