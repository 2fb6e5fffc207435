package runjson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
)

// Encode writes m as run.json's bytes: indented, keys in declaration order,
// a newline at the end.
func Encode(m *Manifest) ([]byte, error) {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// Error is a run.json that cannot be read: its line (0 when unknown) and why.
type Error struct {
	Line int
	Msg  string
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("line %d: %s", e.Line, e.Msg)
	}
	return e.Msg
}

// Decode reads run.json's bytes. Keys it does not know are ignored (a newer
// collector may add some); a schema newer than SchemaVersion, or none, is
// an *Error, as is bad JSON (with its line), a key given twice in one
// object, a declared key in another case (strict.go) and labels no collect
// writes (labels.go).
func Decode(b []byte) (*Manifest, error) {
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, &Error{Line: errorLine(b, err), Msg: err.Error()}
	}
	if err := checkKeys(b, reflect.TypeFor[Manifest]()); err != nil {
		return nil, err
	}
	if m.Schema < 1 || m.Schema > SchemaVersion {
		return nil, &Error{Msg: fmt.Sprintf("run.json schema %d is not one this fairbench reads (1..%d): update fairbench", m.Schema, SchemaVersion)}
	}
	if err := m.checkLabels(); err != nil {
		return nil, err
	}
	return &m, nil
}

// errorLine finds the line of a JSON syntax or type error, 0 if unknown.
func errorLine(b []byte, err error) int {
	var off int64
	var syntax *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case errors.As(err, &syntax):
		off = syntax.Offset
	case errors.As(err, &typ):
		off = typ.Offset
	default:
		return 0
	}
	return 1 + bytes.Count(b[:min(int(off), len(b))], []byte("\n"))
}

// UnmarshalJSON reads an isolation record under its keys, or under the
// Go field names ("ServerCPUs", "ClientCPUs") that runs written before the
// keys were declared carry.
func (i *Isolation) UnmarshalJSON(b []byte) error {
	var v struct {
		ServerCPUs    string  `json:"server_cpus"`
		ClientCPUs    string  `json:"client_cpus"`
		RetakeSlow    float64 `json:"retake_slow"`
		OldServerCPUs string  `json:"ServerCPUs"`
		OldClientCPUs string  `json:"ClientCPUs"`
	}
	if err := json.Unmarshal(b, &v); err != nil {
		return err
	}
	*i = Isolation{ServerCPUs: v.ServerCPUs, ClientCPUs: v.ClientCPUs, RetakeSlow: v.RetakeSlow}
	if i.ServerCPUs == "" {
		i.ServerCPUs = v.OldServerCPUs
	}
	if i.ClientCPUs == "" {
		i.ClientCPUs = v.OldClientCPUs
	}
	return nil
}
