// Package contract holds what every Go target does the same way: the fixed
// strings, the integer rule, the api reshaping, the validate schema (as
// struct tags) and the address to listen on ($HOST, $PORT). Routing, reading
// the request, binding, validation and writing the answer stay in each
// framework's own app, done the way that framework's documentation shows.
// The contract itself is written down in site/apps/README.md.
package contract

import (
	"strconv"
)

// Fixed bodies, byte for byte the same in every target.
const (
	Ping             = "Hi"
	Plaintext        = "Hello, World!"
	PoweredBy        = "benchmark"
	InvalidNumber    = "invalid number"
	ValidationFailed = `{"error":"validation failed"}`
	NotFound         = "not found"
	TextPlain        = "text/plain; charset=utf-8"
	ApplicationJSON  = "application/json"
)

// StaticDir is where the static scenario's files are, relative to the
// app's working directory (site/apps/go).
const StaticDir = "../static"

// Message is the json scenario's object, built anew for every request.
type Message struct {
	Message string `json:"message"`
}

// ParseInt reads an integer as the contract defines it: an optional '-'
// then 1 to 6 ASCII digits, nothing else.
func ParseInt(s string) (int, bool) {
	digits := s
	if len(digits) > 0 && digits[0] == '-' {
		digits = digits[1:]
	}
	if len(digits) < 1 || len(digits) > 6 {
		return 0, false
	}
	for i := 0; i < len(digits); i++ {
		if digits[i] < '0' || digits[i] > '9' {
			return 0, false
		}
	}
	n, err := strconv.Atoi(s)
	return n, err == nil
}

// Sum is the params scenario: a+b as decimal text.
func Sum(a, b string) (string, bool) {
	x, ok1 := ParseInt(a)
	y, ok2 := ParseInt(b)
	if !ok1 || !ok2 {
		return "", false
	}
	return strconv.Itoa(x + y), true
}

// Calc is the querystring scenario: a*b + c - d, where an absent or empty
// parameter takes its default (a=1, b=2, c=3, d=4).
func Calc(a, b, c, d string) (string, bool) {
	var v [4]int
	for i, s := range [4]string{a, b, c, d} {
		if s == "" {
			v[i] = i + 1
			continue
		}
		n, ok := ParseInt(s)
		if !ok {
			return "", false
		}
		v[i] = n
	}
	return strconv.Itoa(v[0]*v[1] + v[2] - v[3]), true
}
