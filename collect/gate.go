package collect

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"net"
	"net/http"
	"net/http/httptrace"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/fairbench/fairbench/collect/machine"
	"github.com/fairbench/fairbench/collect/suite"
)

// GateResult is the conformance verdict for one target.
type GateResult struct {
	// Failed lists the scenarios with a request (or variant) that got the wrong answer.
	Failed []string
	// Transcript is every request, response and verdict, as written to
	// conformance/<target>.txt.
	Transcript string
}

// Passed reports whether scenario passed the gate.
func (g GateResult) Passed(scenario string) bool {
	for _, f := range g.Failed {
		if f == scenario {
			return false
		}
	}
	return true
}

// gateClient talks to targets without keep-alive surprises or redirects.
var gateClient = &http.Client{
	Timeout:       machine.TargetTimeout,
	CheckRedirect: machine.NoRedirect,
	Transport:     &http.Transport{DisableKeepAlives: true, DisableCompression: true, DialContext: dialRecorded},
}

// Gate sends every scenario's request and variants to the server at addr and
// checks each answer byte for byte. A scenario's reset needs the collector's running
// services, so Gate runs none; collect and verify do.
func Gate(ctx context.Context, addr string, scenarios []suite.Scenario) GateResult {
	return gateWith(ctx, gateClient, addr, scenarios, nil)
}

// gateWith is Gate through client, whose connections may start elsewhere
// (on the client host, see SSHHost.HTTPClient). reset, when not nil, runs before the
// checks of a scenario with a reset key (reset.go); each scenario's checks
// get their own {random} (gate_random.go).
func gateWith(ctx context.Context, client *http.Client, addr string, scenarios []suite.Scenario, reset func(context.Context, suite.Scenario) error) GateResult {
	var res GateResult
	var b strings.Builder
	for _, sc := range scenarios {
		checks := withRandom(append([]suite.Variant{{Request: sc.Request, Expect: sc.Expect}}, sc.Variants...), drawRandom())
		ok := true
		if reset != nil && len(sc.Reset) > 0 {
			if err := reset(ctx, sc); err != nil {
				fmt.Fprintf(&b, "=== %s reset %s\nFAIL\n  - %s\n\n", sc.Name, strings.Join(sc.Reset, ", "), err)
				res.Failed = append(res.Failed, sc.Name)
				continue
			}
		}
		for i, c := range checks {
			label := sc.Name
			if i > 0 {
				label = fmt.Sprintf("%s variant %d", sc.Name, i)
			}
			problems := check(ctx, client, addr, c.Request, c.Expect, label, &b)
			if len(problems) > 0 {
				ok = false
			}
		}
		if !ok {
			res.Failed = append(res.Failed, sc.Name)
		}
	}
	res.Transcript = b.String()
	return res
}

// Check sends one request and returns what is wrong with the answer; the
// exchange is written to w.
func check(ctx context.Context, client *http.Client, addr string, req suite.Request, want suite.Expect, label string, w *strings.Builder) []string {
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	var sent *sentConn
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{GotConn: func(info httptrace.GotConnInfo) {
		sent, _ = info.Conn.(*sentConn)
	}})
	status, header, body, err := roundTrip(ctx, client, addr, method, req)
	fmt.Fprintf(w, "=== %s\n", label)
	writeSent(w, sent, method, req)
	var problems []string
	if err != nil {
		problems = append(problems, err.Error())
	} else {
		fmt.Fprintf(w, "< %d\n", status)
		for _, k := range slices.Sorted(maps.Keys(flatten(header))) {
			fmt.Fprintf(w, "< %s: %s\n", k, header.Get(k))
		}
		fmt.Fprintf(w, "<\n< %s\n", quoteBody(body))
		problems = compare(status, header, body, want)
	}
	if len(problems) == 0 {
		fmt.Fprintf(w, "PASS\n\n")
		return nil
	}
	fmt.Fprintf(w, "FAIL\n")
	for _, p := range problems {
		fmt.Fprintf(w, "  - %s\n", p)
	}
	w.WriteString("\n")
	return problems
}

// writeSent writes the request to the transcript: the head exactly as it
// went on the wire when the connection recorded it (request line, every
// header the client added, a line with a control character quoted), else
// as the suite gave it; then the body.
func writeSent(w *strings.Builder, sent *sentConn, method string, req suite.Request) {
	head := ""
	if sent != nil {
		sent.mu.Lock()
		head, _, _ = strings.Cut(string(sent.sent), "\r\n\r\n")
		sent.mu.Unlock()
	}
	if head == "" {
		fmt.Fprintf(w, "> %s %s\n", method, quoteControl(req.Path))
		for _, k := range slices.Sorted(maps.Keys(req.Headers)) {
			fmt.Fprintf(w, "> %s\n", quoteControl(k+": "+req.Headers[k]))
		}
	} else {
		for _, line := range strings.Split(head, "\r\n") {
			fmt.Fprintf(w, "> %s\n", quoteControl(line))
		}
	}
	if req.Body != "" {
		fmt.Fprintf(w, ">\n> %s\n", quoteBody([]byte(req.Body)))
	}
}

// quoteControl is s, or s as a Go string where it holds a control
// character, so a stray CR or LF shows as \r or \n.
func quoteControl(s string) string {
	if suite.HasControl(s, true) {
		return strconv.Quote(s)
	}
	return s
}

// sentConn is a connection that keeps the first bytes written to it: the
// gate's transcript shows what was sent, not what the suite meant to send.
type sentConn struct {
	net.Conn
	mu   sync.Mutex
	sent []byte
}

// maxSent is how much of a request sentConn keeps: a head, not a body.
const maxSent = 64 << 10

func (c *sentConn) Write(p []byte) (int, error) {
	c.mu.Lock()
	if room := maxSent - len(c.sent); room > 0 {
		c.sent = append(c.sent, p[:min(len(p), room)]...)
	}
	c.mu.Unlock()
	return c.Conn.Write(p)
}

// dialRecorded dials as the default transport does, through a sentConn.
func dialRecorded(ctx context.Context, network, addr string) (net.Conn, error) {
	conn, err := (&net.Dialer{Timeout: 5 * time.Second}).DialContext(ctx, network, addr)
	if err != nil {
		return nil, err
	}
	return &sentConn{Conn: conn}, nil
}

func roundTrip(ctx context.Context, client *http.Client, addr, method string, req suite.Request) (int, http.Header, []byte, error) {
	var body io.Reader
	if req.Body != "" {
		body = strings.NewReader(req.Body)
	}
	hr, err := http.NewRequestWithContext(ctx, method, "http://"+addr+req.Path, body)
	if err != nil {
		return 0, nil, nil, err
	}
	for k, v := range req.Headers {
		hr.Header.Set(k, v)
	}
	resp, err := client.Do(hr)
	if err != nil {
		return 0, nil, nil, err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(io.LimitReader(resp.Body, 16<<20))
	if err != nil {
		return 0, nil, nil, fmt.Errorf("read body: %w", err)
	}
	return resp.StatusCode, resp.Header, b, nil
}

// compare lists every way the response differs from want.
func compare(status int, header http.Header, body []byte, want suite.Expect) []string {
	var problems []string
	if want.Status != 0 && status != want.Status {
		problems = append(problems, fmt.Sprintf("status %d, want %d", status, want.Status))
	}
	problems = append(problems, compareHeaders(header, want)...)
	if want.Body != nil && !bytes.Equal(body, []byte(*want.Body)) {
		problems = append(problems, "body differs:\n"+bodyDiff(body, []byte(*want.Body)))
	}
	if want.BodyJSON != nil {
		if p := compareJSON(body, []byte(*want.BodyJSON)); p != "" {
			problems = append(problems, p)
		}
	}
	if want.BodyLength != nil && int64(len(body)) != *want.BodyLength {
		problems = append(problems, fmt.Sprintf("body is %d bytes, want %d", len(body), *want.BodyLength))
	}
	if want.BodySHA256 != "" {
		sum := sha256.Sum256(body)
		if got := hex.EncodeToString(sum[:]); got != strings.ToLower(want.BodySHA256) {
			problems = append(problems, fmt.Sprintf("body sha256 %s, want %s (%d bytes)", got, want.BodySHA256, len(body)))
		}
	}
	return problems
}

// compareHeaders checks the headers that must be there (headers), must
// match (headers_match) and the whole set that must be equal
// (headers_equal, Date aside).
func compareHeaders(header http.Header, want suite.Expect) []string {
	var problems []string
	for _, k := range slices.Sorted(maps.Keys(want.Headers)) {
		w := want.Headers[k]
		got, present := header[http.CanonicalHeaderKey(k)]
		switch {
		case !present:
			problems = append(problems, fmt.Sprintf("header %s missing, want %q", k, w))
		case strings.HasSuffix(w, "*") && !strings.HasPrefix(got[0], strings.TrimSuffix(w, "*")):
			problems = append(problems, fmt.Sprintf("header %s: %q, want %q", k, got[0], w))
		case !strings.HasSuffix(w, "*") && got[0] != w:
			problems = append(problems, fmt.Sprintf("header %s: %q, want %q", k, got[0], w))
		}
	}
	for _, k := range slices.Sorted(maps.Keys(want.HeadersMatch)) {
		got, present := header[http.CanonicalHeaderKey(k)]
		re, err := regexp.Compile(want.HeadersMatch[k])
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("header %s: %v", k, err))
		case !present:
			problems = append(problems, fmt.Sprintf("header %s missing, want one matching %s", k, want.HeadersMatch[k]))
		case !re.MatchString(got[0]):
			problems = append(problems, fmt.Sprintf("header %s: %q does not match %s", k, got[0], want.HeadersMatch[k]))
		}
	}
	if want.HeadersEqual != nil {
		wantSet := map[string]string{}
		for k, v := range want.HeadersEqual {
			wantSet[http.CanonicalHeaderKey(k)] = v
		}
		got := flatten(header)
		for _, k := range slices.Sorted(maps.Keys(wantSet)) {
			if g, ok := got[k]; !ok {
				problems = append(problems, fmt.Sprintf("header %s missing, want %q", k, wantSet[k]))
			} else if g != wantSet[k] {
				problems = append(problems, fmt.Sprintf("header %s: %q, want %q", k, g, wantSet[k]))
			}
		}
		for _, k := range slices.Sorted(maps.Keys(got)) {
			if _, ok := wantSet[k]; !ok {
				problems = append(problems, fmt.Sprintf("header %s: %q is not in headers_equal", k, got[k]))
			}
		}
	}
	return problems
}

// compareJSON reports how body differs from want as a JSON value, "" when
// they are equal. Numbers compare by their text, so 1.0 and 1 differ.
func compareJSON(body, want []byte) string {
	var g, w any
	if err := decodeJSON(body, &g); err != nil {
		return fmt.Sprintf("body is not JSON (%v): %s", err, quoteBody(body))
	}
	if err := decodeJSON(want, &w); err != nil {
		return fmt.Sprintf("body_json is not JSON: %v", err)
	}
	if !reflect.DeepEqual(g, w) {
		gn, _ := json.Marshal(g)
		wn, _ := json.Marshal(w)
		return "body differs as JSON:\n" + bodyDiff(gn, wn)
	}
	return ""
}

func decodeJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return fmt.Errorf("more than one value")
	}
	return nil
}

// bodyDiff shows where two bodies part, byte for byte.
func bodyDiff(got, want []byte) string {
	i := 0
	for i < len(got) && i < len(want) && got[i] == want[i] {
		i++
	}
	return fmt.Sprintf("      got  %d bytes: %s\n      want %d bytes: %s\n      first difference at byte %d",
		len(got), quoteBody(got), len(want), quoteBody(want), i)
}

// quoteBody prints a body as a Go string, cut at 512 bytes.
func quoteBody(b []byte) string {
	const max = 512
	if len(b) > max {
		return fmt.Sprintf("%q… (%d bytes in all)", b[:max], len(b))
	}
	return fmt.Sprintf("%q", b)
}

func flatten(h http.Header) map[string]string {
	m := make(map[string]string, len(h))
	for k, v := range h {
		if k == "Date" {
			continue // changes every second; kept out so transcripts compare
		}
		m[k] = strings.Join(v, ", ")
	}
	return m
}
