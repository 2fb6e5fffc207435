// Command planted serves the ping scenario of the benchmark contract
// (site/apps/README.md: GET / → 200 "Hi", text/plain; anything else 404)
// with net/http alone, and spends a fixed, added amount of CPU on every
// request: $PLANT_LOOPS iterations of a 64-bit linear congruential step
// (0 or unset: none). site/suites/planted.toml runs it at several counts
// to plant known differences in server CPU per request, the yardstick of
// how small a difference the publishing host resolves.
package main

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"os"
	"strconv"
	"sync/atomic"

	"github.com/fairbench/fairbench/site/apps/go/internal/contract"
)

// sink keeps every request's loop result and seeds the next one, so the
// loop's value is live and the compiler cannot drop the work.
var sink atomic.Uint64

// loops reads $PLANT_LOOPS: a non-negative decimal integer, 0 when unset.
func loops() (uint64, error) {
	s := os.Getenv("PLANT_LOOPS")
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseUint(s, 10, 32)
	if err != nil {
		return 0, fmt.Errorf("PLANT_LOOPS=%q: want a non-negative integer of loop iterations", s)
	}
	return n, nil
}

// spin runs n dependent multiply-add steps from seed: each step waits on
// the last, so the cost is n times one step, with no shortcut to fold.
func spin(n, seed uint64) uint64 {
	x := seed
	for i := uint64(0); i < n; i++ {
		x = x*6364136223846793005 + 1442695040888963407
	}
	return x
}

func main() {
	n, err := loops()
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) {
		sink.Store(spin(n, sink.Load()))
		w.Header().Set("Content-Type", contract.TextPlain)
		w.WriteHeader(http.StatusOK)
		io.WriteString(w, contract.Ping)
	})
	log.Fatal(http.ListenAndServe(contract.Addr(), mux))
}
