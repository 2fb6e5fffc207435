package collect

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/fairbench/fairbench/collect/suite"
)

func TestCompare(t *testing.T) {
	str := func(s string) *string { return &s }
	n := func(v int64) *int64 { return &v }
	header := http.Header{"Content-Type": {"application/json; charset=utf-8"}, "Etag": {`W/"abc"`}, "Date": {"now"}}
	body := []byte(`{"b": [1, 2], "a": "x"}`)
	for _, c := range []struct {
		name string
		want suite.Expect
		// problem is a part of the only problem expected, "" for none.
		problem string
	}{
		{"status", suite.Expect{Status: 201}, "status 200, want 201"},
		{"header prefix", suite.Expect{Headers: map[string]string{"content-type": "application/json*"}}, ""},
		{"header exact", suite.Expect{Headers: map[string]string{"content-type": "application/json"}}, `header content-type: "application/json; charset=utf-8", want "application/json"`},
		{"header missing", suite.Expect{Headers: map[string]string{"x-powered-by": "b"}}, "header x-powered-by missing"},
		{"match", suite.Expect{HeadersMatch: map[string]string{"etag": `^W/"[a-z]+"$`}}, ""},
		{"no match", suite.Expect{HeadersMatch: map[string]string{"etag": `^"`}}, `header etag: "W/\"abc\"" does not match ^"`},
		{"equal", suite.Expect{HeadersEqual: map[string]string{"content-type": "application/json; charset=utf-8", "etag": `W/"abc"`}}, ""},
		{"equal extra", suite.Expect{HeadersEqual: map[string]string{"content-type": "application/json; charset=utf-8"}}, "header Etag: \"W/\\\"abc\\\"\" is not in headers_equal"},
		{"json", suite.Expect{BodyJSON: str(`{"a":"x","b":[1,2]}`)}, ""},
		{"json differs", suite.Expect{BodyJSON: str(`{"a":"x","b":[2,1]}`)}, "body differs as JSON"},
		{"json number text", suite.Expect{BodyJSON: str(`{"a":"x","b":[1.0,2]}`)}, "body differs as JSON"},
		{"length", suite.Expect{BodyLength: n(int64(len(body)))}, ""},
		{"length differs", suite.Expect{BodyLength: n(3)}, "body is 23 bytes, want 3"},
		{"exact", suite.Expect{Body: str(`{"b": [1, 2], "a": "y"}`)}, "first difference at byte 20"},
		{"sha256", suite.Expect{BodySHA256: strings.Repeat("0", 64)}, "body sha256"},
	} {
		got := compare(200, header, body, c.want)
		switch {
		case c.problem == "" && len(got) > 0:
			t.Errorf("%s: problems %q, want none", c.name, got)
		case c.problem != "" && (len(got) != 1 || !strings.Contains(got[0], c.problem)):
			t.Errorf("%s: problems %q, want one containing %q", c.name, got, c.problem)
		}
	}
}

// TestGateTranscriptShowsBytesSent checks that the transcript shows the
// request head as it went on the wire (request line, canonical header
// names, the headers the client adds) and never writes a raw control
// character: a path with a CR LF shows quoted.
func TestGateTranscriptShowsBytesSent(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Write([]byte("ok"))
	}))
	defer srv.Close()
	addr := strings.TrimPrefix(srv.URL, "http://")
	ok := "ok"
	g := Gate(context.Background(), addr, []suite.Scenario{{
		Name:    "post",
		Request: suite.Request{Method: "POST", Path: "/p?q=1", Headers: map[string]string{"x-a": "1"}, Body: "hi"},
		Expect:  suite.Expect{Status: 200, Body: &ok},
		Variants: []suite.Variant{{
			Request: suite.Request{Path: "/a\r\nX-Injected: 1"},
			Expect:  suite.Expect{Status: 200},
		}},
	}})
	for _, want := range []string{
		"=== post\n> POST /p?q=1 HTTP/1.1\n> Host: " + addr + "\n> User-Agent: Go-http-client/1.1\n> Content-Length: 2\n> X-A: 1\n> Connection: close\n>\n> \"hi\"\n< 200\n",
		"=== post variant 1\n> GET \"/a\\r\\nX-Injected: 1\"\nFAIL\n",
	} {
		if !strings.Contains(g.Transcript, want) {
			t.Errorf("transcript lacks\n%s\ngot\n%s", want, g.Transcript)
		}
	}
	if strings.ContainsRune(g.Transcript, '\r') {
		t.Errorf("a raw CR in the transcript:\n%q", g.Transcript)
	}
}
