package render

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/runjson"
)

// claimReps is how many repetitions each behaviour is measured for: the
// verdicts' MinReps.
const claimReps = 3

// behaviours are the servers the claims tests load with the real wrk, each
// an httptest server of this process: "ok" answers 200 after 2 ms (so at
// most 2,000 req/s on wrk's 4 connections), "errors" answers 500 at once
// (many times faster), "quick" answers 200 at once, "half" answers 500 to 47 of every 100 requests at
// once and 200 to the rest after 2 ms, "silent" never answers.
var behaviours = map[string]http.HandlerFunc{
	"ok": func(w http.ResponseWriter, r *http.Request) {
		time.Sleep(2 * time.Millisecond)
		fmt.Fprint(w, "hi")
	},
	"errors": func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "broken", http.StatusInternalServerError)
	},
	"quick": func(w http.ResponseWriter, r *http.Request) {
		fmt.Fprint(w, "hi")
	},
	"half": halfHandler(),
	"silent": func(w http.ResponseWriter, r *http.Request) {
		<-r.Context().Done()
	},
}

func halfHandler() http.HandlerFunc {
	var n atomic.Int64
	return func(w http.ResponseWriter, r *http.Request) {
		if n.Add(1)%100 < 47 {
			http.Error(w, "broken", http.StatusInternalServerError)
			return
		}
		time.Sleep(2 * time.Millisecond)
		fmt.Fprint(w, "hi")
	}
}

// wrkDumps are wrk's stdouts per behaviour, one per repetition, measured
// once per test binary (every behaviour's repetition r at the same time).
var wrkDumps = sync.OnceValues(func() (map[string][]string, error) {
	out := map[string][]string{}
	for rep := 0; rep < claimReps; rep++ {
		var wg sync.WaitGroup
		var mu sync.Mutex
		var first error
		for kind, h := range behaviours {
			wg.Add(1)
			go func() {
				defer wg.Done()
				srv := httptest.NewServer(h)
				defer srv.Close()
				b, err := exec.Command("wrk", "-t1", "-c4", "-d1s", "--timeout", "2s", "--latency", srv.URL+"/").Output()
				mu.Lock()
				defer mu.Unlock()
				if err != nil && first == nil {
					first = fmt.Errorf("wrk on %s: %w", kind, err)
				}
				out[kind] = append(out[kind], string(b))
			}()
		}
		wg.Wait()
		if first != nil {
			return nil, first
		}
	}
	return out, nil
})

// claimTarget is one target of a test run dir: the behaviour it was
// measured as, and its gate verdict in run.json: "pass", "none" for a
// target record without one, "" for no target record at all.
type claimTarget struct {
	name, kind, gate string
}

// claimRunDir writes a run dir of one scenario, "ping", with targets as
// run.json records them and each its behaviour's real wrk dumps, the
// targets' repetitions interleaved as collect runs them; it returns the
// run dir.
func claimRunDir(t *testing.T, targets ...claimTarget) string {
	t.Helper()
	if _, err := exec.LookPath("wrk"); err != nil {
		missing(t, "wrk", "apt-get install wrk")
	}
	dumps, err := wrkDumps()
	if err != nil {
		t.Fatal(err)
	}
	id := "20270101T000000Z-claims"
	dir := filepath.Join(t.TempDir(), id)
	start := time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)
	m := &runjson.Manifest{Schema: runjson.SchemaVersion, ID: id, Suite: "claims", Status: runjson.StatusComplete,
		Start: start, Tools: map[string]runjson.Version{"wrk": {Version: "4.1.0"}}}
	for _, tg := range targets {
		switch tg.gate {
		case "":
		case "none":
			m.Targets = append(m.Targets, runjson.Target{Name: tg.name})
		default:
			rec := runjson.Target{Name: tg.name, Conformance: tg.gate, Transcript: "conformance/" + tg.name + ".txt"}
			writeClaimFile(t, dir, rec.Transcript, "GET / → 200 hi: "+tg.gate+"\n")
			m.Targets = append(m.Targets, rec)
		}
	}
	order := 0
	for rep := 1; rep <= claimReps; rep++ {
		for _, tg := range targets {
			order++
			dump := fmt.Sprintf("dumps/%s/ping/%d.txt", tg.name, rep)
			text := dumps[tg.kind][rep-1]
			sum := writeClaimFile(t, dir, dump, text)
			at := start.Add(time.Duration(order) * time.Second)
			m.Measurements = append(m.Measurements, runjson.Measurement{Target: tg.name, Scenario: "ping", Rep: rep, Order: order,
				Tool: "wrk", ToolVersion: "4.1.0", Argv: []string{"wrk", "-t1", "-c4", "-d1s", "--timeout", "2s", "--latency", "http://127.0.0.1/"},
				Start: at, End: at.Add(time.Second), Dump: dump, SHA256: sum})
		}
	}
	b, err := runjson.Encode(m)
	if err != nil {
		t.Fatal(err)
	}
	writeClaimFile(t, dir, "run.json", string(b))
	return dir
}

// writeClaimFile writes text to dir/rel and returns its sha256.
func writeClaimFile(t *testing.T, dir, rel, text string) string {
	t.Helper()
	name := filepath.Join(dir, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(name, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// readClaimRun reads a run dir claimRunDir wrote.
func readClaimRun(t *testing.T, dir string) *parse.Set {
	t.Helper()
	set, errs := parse.ReadAll([]string{dir})
	for _, err := range errs {
		t.Errorf("reading %s: %v", dir, err)
	}
	return set
}
