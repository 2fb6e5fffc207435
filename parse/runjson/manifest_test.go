package runjson_test

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse/runjson"
)

// committedRuns are the run.json files of the test data of parse, audit
// and render (real runs written by collect), and testdata/keys: run.json
// files of real runs cut to the few measurements that carry every key
// the run wrote (testdata/keys/README.md).
func committedRuns(t *testing.T) []string {
	t.Helper()
	var names []string
	for _, glob := range []string{"testdata/keys/*.json", "../testdata/*/*/run.json", "../audit/testdata/*/*/run.json", "../../render/testdata/runs/*/run.json"} {
		m, err := filepath.Glob(glob)
		if err != nil {
			t.Fatal(err)
		}
		names = append(names, m...)
	}
	if len(names) < 5 {
		t.Fatalf("found %d committed run.json files, want at least 5: %q", len(names), names)
	}
	return names
}

// TestCommittedRunsKnown decodes every committed run.json with unknown keys
// refused: every key collect ever wrote has a field here, or a reader for
// its old name.
func TestCommittedRunsKnown(t *testing.T) {
	for _, name := range committedRuns(t) {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := runjson.Decode(b); err != nil {
			t.Errorf("%s: %v", name, err)
		}
		var raw map[string]json.RawMessage
		if err := json.Unmarshal(b, &raw); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		raw["isolation"] = json.RawMessage(`{}`) // read under two names; TestIsolationOldKeys
		strict, _ := json.Marshal(raw)
		dec := json.NewDecoder(bytes.NewReader(strict))
		dec.DisallowUnknownFields()
		var m runjson.Manifest
		if err := dec.Decode(&m); err != nil {
			t.Errorf("%s: a key the schema does not declare: %v", name, err)
		}
	}
}

// TestIsolationOldKeys reads the CPU lists of a run written before
// Isolation had keys of its own (render/testdata's run says "ServerCPUs").
func TestIsolationOldKeys(t *testing.T) {
	for _, tt := range []struct{ json, server, client string }{
		{`{"ServerCPUs":"0","ClientCPUs":"1"}`, "0", "1"},
		{`{"server_cpus":"0-3","client_cpus":"4"}`, "0-3", "4"},
		{`{"server_cpus":"2","ServerCPUs":"0"}`, "2", ""},
		{`{}`, "", ""},
	} {
		var got runjson.Isolation
		if err := json.Unmarshal([]byte(tt.json), &got); err != nil {
			t.Fatal(err)
		}
		if got.ServerCPUs != tt.server || got.ClientCPUs != tt.client {
			t.Errorf("%s: got %+v, want server %q client %q", tt.json, got, tt.server, tt.client)
		}
	}
	b, err := os.ReadFile("../../render/testdata/runs/20261129T192304Z-vm/run.json")
	if err != nil {
		t.Fatal(err)
	}
	m, err := runjson.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if m.Isolation.ServerCPUs != "0" || m.Isolation.ClientCPUs != "1" {
		t.Errorf("render/testdata run: isolation %+v, want server 0 client 1", m.Isolation)
	}
}

// TestDecodeErrors names the line of bad JSON and refuses schemas it does
// not know.
func TestDecodeErrors(t *testing.T) {
	for _, tt := range []struct {
		in   string
		line int
		say  string
	}{
		{"{\n\"schema\": 1,\n\"id\": 5\n}", 3, "string"},
		{"{\n\"schema\": 1,\n\"id\": \"x\",,\n}", 3, "invalid character"},
		{`{"schema": 2}`, 0, "schema 2"},
		{`{"id": "x"}`, 0, "schema 0"},
	} {
		_, err := runjson.Decode([]byte(tt.in))
		var me *runjson.Error
		if !errors.As(err, &me) {
			t.Errorf("%q: error %v, want a *runjson.Error", tt.in, err)
			continue
		}
		if me.Line != tt.line || !strings.Contains(me.Msg, tt.say) {
			t.Errorf("%q: line %d %q, want line %d saying %q", tt.in, me.Line, me.Msg, tt.line, tt.say)
		}
	}
}

// TestWordsDistinct keeps CPU lists and CPU seconds apart by name: a field
// whose name says CPUs must be a list (a string), one that says Seconds a
// number.
func TestWordsDistinct(t *testing.T) {
	for _, typ := range []reflect.Type{reflect.TypeFor[runjson.Measurement](), reflect.TypeFor[runjson.Isolation]()} {
		for f := range typ.Fields() {
			switch {
			case strings.HasSuffix(f.Name, "CPUList") || strings.HasSuffix(f.Name, "CPUs"):
				if f.Type.Kind() != reflect.String {
					t.Errorf("%s.%s is a %s, want a CPU list (string)", typ.Name(), f.Name, f.Type)
				}
			case strings.HasSuffix(f.Name, "CPUSeconds"):
				if f.Type.Kind() != reflect.Float64 {
					t.Errorf("%s.%s is a %s, want seconds (float64)", typ.Name(), f.Name, f.Type)
				}
			case strings.Contains(f.Name, "CPU"):
				t.Errorf("%s.%s: say CPUList or CPUSeconds", typ.Name(), f.Name)
			}
		}
	}
}

// TestCeilingRoundTrip writes and reads back the fields of the client's
// ceiling: a ceiling measurement's load and limit, and a point not offered.
func TestCeilingRoundTrip(t *testing.T) {
	in := &runjson.Manifest{Schema: runjson.SchemaVersion, ID: "r",
		Measurements: []runjson.Measurement{{Target: "stdlib", Scenario: "ping", Rep: 1, Phase: "ceiling", Connections: 32,
			SendRate: 30123.5, ClientLoad: 0.97, ClientBound: true, Limit: 27111.15, Dump: "dumps/stdlib/ping/ceiling/1.txt"}},
		NotOffered: []runjson.NotOffered{{Target: "gin", Scenario: "ping", Rate: 54000, RateFraction: 0.9, Capacity: 60000,
			Ceiling: 30123.5, ClientBound: true, Limit: 27111.15, Calibration: "dumps/stdlib/ping/ceiling/1.txt"}},
	}
	b, err := runjson.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{`"not_offered"`, `"client_load"`, `"client_bound"`, `"limit"`, `"calibration"`, `"ceiling"`} {
		if !bytes.Contains(b, []byte(key)) {
			t.Errorf("run.json lacks %s:\n%s", key, b)
		}
	}
	out, err := runjson.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out.NotOffered, in.NotOffered) || !reflect.DeepEqual(out.Measurements, in.Measurements) {
		t.Errorf("read back %+v %+v, wrote %+v %+v", out.NotOffered, out.Measurements, in.NotOffered, in.Measurements)
	}
}

// TestBuildCachedRoundTrip writes and reads back a target's build_cached,
// which is left out when the build was cold.
func TestBuildCachedRoundTrip(t *testing.T) {
	in := &runjson.Manifest{Schema: runjson.SchemaVersion, ID: "r",
		Targets: []runjson.Target{{Name: "gin", BuildS: 0.41, BuildCached: true}, {Name: "chi", BuildS: 2.3}}}
	b, err := runjson.Encode(in)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(b, []byte(`"build_cached"`)); n != 1 {
		t.Errorf("run.json has build_cached %d times, want once (gin's):\n%s", n, b)
	}
	out, err := runjson.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(out.Targets, in.Targets) {
		t.Errorf("read back %+v, wrote %+v", out.Targets, in.Targets)
	}
}
