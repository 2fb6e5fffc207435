package runjson_test

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/parse/runjson"
)

// TestDecodeStrictKeys: a declared key in another case, or a key given
// twice in one object, refuses run.json with the line of the key; keys not
// declared, and Isolation's old names, are still read.
func TestDecodeStrictKeys(t *testing.T) {
	const head = "{\n\"schema\": 1,\n\"id\": \"r\",\n"
	for _, tt := range []struct {
		name, body string
		line       int
		say        string
	}{
		{"other case", `"measurements": [{"target": "gin", "rep": 1,` + "\n" + `"Target": "chi", "Rep": 2}]}`, 5, `key "Target" is not a run.json key: keys are case-sensitive, and the key is "target"`},
		{"twice", `"measurements": [{"target": "gin",` + "\n" + `"target": "chi"}]}`, 5, `key "target" is given twice in one object (lines 4 and 5)`},
		{"twice at the top", `"id": "s"}`, 4, `key "id" is given twice`},
		{"twice in a map", `"tools": {"wrk": {"path": "a"},` + "\n" + `"wrk": {"path": "b"}}}`, 5, `key "wrk" is given twice`},
		{"case inside a map value", `"tools": {"wrk": {"Path": "a"}}}`, 4, `key "Path" is not a run.json key`},
		{"case in a pointer", `"schedule": {"Kind": "random"}}`, 4, `the key is "kind"`},
		{"case in isolation", `"isolation": {"Server_CPUs": "0"}}`, 4, `the key is "server_cpus"`},
		{"escaped key", `"measurements": [{"target": "a", "\u0074arget": "b"}]}`, 4, `key "target" is given twice`},
	} {
		_, err := runjson.Decode([]byte(head + tt.body))
		var me *runjson.Error
		if !errors.As(err, &me) || me.Line != tt.line || !strings.Contains(me.Msg, tt.say) {
			t.Errorf("%s: error %v, want line %d saying %q", tt.name, err, tt.line, tt.say)
		}
	}
	for _, ok := range []string{
		`"a_key_from_later": {"Target": 1, "x": [1, {"y": "}"}]}}`,
		`"isolation": {"ServerCPUs": "0", "ClientCPUs": "1"}}`,
		`"measurements": [{"target": "a\"b\\", "rep": 1}, {"target": "c", "rep": 1}]}`,
	} {
		if _, err := runjson.Decode([]byte(head + ok)); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
}

// TestSiteRunsStrict decodes every run.json of the committed site: none of
// them has a key twice or in another case.
func TestSiteRunsStrict(t *testing.T) {
	names, _ := filepath.Glob("../../site/results/*/run.json")
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := runjson.Decode(b); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// FuzzDecode: whatever run.json holds, Decode does not panic; what it
// refuses is an *Error whose line is inside the input; what it reads is
// range-checked without a panic and written back as a run.json it reads
// again to the same bytes. Seeds: the cut real runs of testdata/keys, each
// list cut to its first entry (a large seed has the fuzzer spend its time
// minimizing), and the refusals of TestDecodeStrictKeys.
func FuzzDecode(f *testing.F) {
	names, _ := filepath.Glob("testdata/keys/*.json")
	for _, name := range names {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		var doc map[string]any
		if err := json.Unmarshal(b, &doc); err != nil {
			f.Fatal(err)
		}
		for k, v := range doc {
			if list, ok := v.([]any); ok && len(list) > 1 {
				doc[k] = list[:1]
			}
		}
		b, _ = json.Marshal(doc)
		f.Add(b)
	}
	f.Add([]byte(`{"schema": 1, "measurements": [{"target": "gin", "Target": "chi", "rep": 0, "rate_fraction": 1e300}]}`))
	f.Add([]byte(`{"schema": 1, "isolation": {"ServerCPUs": "0"}, "tools": {"wrk": {}, "wrk": {}}}`))
	f.Fuzz(func(t *testing.T, b []byte) {
		m, err := runjson.Decode(b)
		if err != nil {
			var me *runjson.Error
			if !errors.As(err, &me) || me.Line < 0 || me.Line > 1+strings.Count(string(b), "\n") {
				t.Fatalf("error %T %v", err, err)
			}
			return
		}
		m.Ranges()
		out, err := runjson.Encode(m)
		if err != nil {
			return // a time out of JSON's range cannot be written back
		}
		again, err := runjson.Decode(out)
		if err != nil {
			t.Fatalf("run.json as written is refused: %v\n%s", err, out)
		}
		if out2, _ := runjson.Encode(again); string(out2) != string(out) {
			t.Fatalf("written twice differently:\n%s\n%s", out, out2)
		}
	})
}
