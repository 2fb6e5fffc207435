package parse

import (
	"bytes"
	"math"
	"strconv"
	"testing"
	"time"
)

// The JSON dialects' fast decoders must take every document the tools
// write (or reading them is slow again), and give up on what only
// encoding/json knows how to read or how to refuse. FuzzJSONDecode checks
// that what they do take, they decode as encoding/json does.

func TestJSONFastPathTakesFixtures(t *testing.T) {
	docs := fixtureJSONDocs(t)
	if len(docs) < 10 {
		t.Fatalf("%d JSON documents in the fixtures, want at least 10", len(docs))
	}
	for _, doc := range docs {
		var a autocannonJSON
		var b bombardierJSON
		switch {
		case bytes.Contains(doc, []byte(`"spec"`)):
			if !b.decodeFast(doc) {
				t.Errorf("bombardier fast decoder gave up on %.80s…", doc)
			}
		case !a.decodeFast(doc):
			t.Errorf("autocannon fast decoder gave up on %.80s…", doc)
		}
	}
}

func TestJSONFastPathGivesUp(t *testing.T) {
	for _, doc := range []string{
		`{"url":"http://x/\u0041","latency":{},"requests":{}}`, // escape
		`{"url":"a","url":"b","latency":{},"requests":{}}`,     // key twice
		`{"URL":"a","latency":{},"requests":{}}`,               // matches only ignoring case
		`{"ſpec":{}}`,                                          // Unicode folding
		`{"connections":"10","latency":{},"requests":{}}`,      // a string for a number
		`{"connections":1.5,"latency":{},"requests":{}}`,       // a fraction for an integer
		`{"connections":1e2,"latency":{},"requests":{}}`,       // an exponent for an integer
		`{"connections":99999999999999999999}`,                 // out of range
		`{"duration":1e999,"latency":{},"requests":{}}`,        // out of range
		`{"latency":{},"requests":{}} x`,                       // text after the document
		`{"latency":{},"requests":{},}`,                        // trailing comma
		`{"latency":{"p50":1,"p50":2},"requests":{}}`,          // one percentile twice
		`{"latency":{"mean":"1"},"requests":{}}`,               // a string in the statistics
		`{"latency":[],"requests":{}}`,                         // statistics not an object
		`{"url":"\xff","latency":{},"requests":{}}`,            // invalid UTF-8
		`{"latency":{"mean":01},"requests":{}}`,                // a leading zero
		`{"x":[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[1]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]]}`,
	} {
		var a autocannonJSON
		if a.decodeFast([]byte(doc)) {
			t.Errorf("the autocannon fast decoder took %s", doc)
		}
	}
	for _, doc := range []string{
		`{"spec":{},"result":{"latency":{"percentiles":{"fifty":1}}}}`,       // not a percentile
		`{"spec":{},"result":{"latency":{"percentiles":{"50":1,"50.0":2}}}}`, // one percentile twice
		`{"spec":{},"result":{"errors":[null]}}`,
		`{"spec":{"rate":true},"result":{}}`,
		`{"spec":{},"result":{},"Result":{}}`,
		`{"spec":{"numberOfConnections":-1.0}}`,
	} {
		var b bombardierJSON
		if b.decodeFast([]byte(doc)) {
			t.Errorf("the bombardier fast decoder took %s", doc)
		}
	}
}

func TestJSONFastPathNulls(t *testing.T) {
	doc := `{"spec":{"rate":null,"url":null},"result":{"latency":null,"errors":null,"rps":null,"others":null}}`
	var b bombardierJSON
	if !b.decodeFast([]byte(doc)) {
		t.Fatalf("gave up on %s", doc)
	}
	if b.Result == nil || b.Result.Latency != nil || b.Result.Errors != nil || b.Spec.URL != "" {
		t.Errorf("got %s", dumpValue(b))
	}
	doc = `{"1xx":null,"latency":{"mean":null,"p50":null},"requests":{},"throughput":null}`
	var a autocannonJSON
	if !a.decodeFast([]byte(doc)) {
		t.Fatalf("gave up on %s", doc)
	}
	if a.C1xx != nil || !a.Latency.present || len(a.Latency.percentiles) != 1 || a.Throughput.present {
		t.Errorf("got %s", dumpValue(a))
	}
}

func TestJSONMillis(t *testing.T) {
	for _, ms := range []float64{0, -0.0, 1, 18, 0.18, 2.5, 1e15, 4e15, 1e300, -3, 123456.789} {
		want, ok := millis(strconv.FormatFloat(ms, 'f', -1, 64))
		if !ok { // beyond a Duration: saturated, so that the range check sees it
			want = time.Duration(math.MaxInt64)
		}
		if got := jsonMillis(ms); got != want {
			t.Errorf("jsonMillis(%v) = %v, want %v", ms, got, want)
		}
	}
	if got := jsonMillis(18); got != 18*time.Millisecond {
		t.Errorf("jsonMillis(18) = %v", got)
	}
}
