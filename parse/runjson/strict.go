package runjson

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
)

// encoding/json matches an object's keys to fields without regard to case
// and lets the last of two equal keys win. Other readers of run.json (jq,
// Python) take the exact key, and the first or the last: a "Target" beside
// "target" would make fairbench count a dump as another target's than they
// do. checkKeys refuses both before a run.json is read: a key that is a
// declared key in another case, and a key given twice in one object. Keys
// run.json does not declare are still let through (a newer collector may
// add some).

// oldKeys are the keys a type reads besides its declared ones (its
// UnmarshalJSON reads them under their old names).
var oldKeys = map[reflect.Type][]string{
	reflect.TypeFor[Isolation](): {"ServerCPUs", "ClientCPUs"},
}

// keyChecker walks a JSON document that is known to be valid, beside the
// Go type it decodes into.
type keyChecker struct {
	b   []byte
	pos int
}

// checkKeys checks the keys of the valid JSON document b for t (see
// above); the *Error names the line of the first bad key.
func checkKeys(b []byte, t reflect.Type) error {
	c := &keyChecker{b: b}
	return c.value(t)
}

// fieldKeys are a struct type's JSON keys and the types under them.
type fieldKeys map[string]reflect.Type

var fieldCache sync.Map // reflect.Type -> fieldKeys

// keysOf returns the keys of struct type t as encoding/json names them:
// the tag's name, else the field's; embedded structs' keys flattened.
func keysOf(t reflect.Type) fieldKeys {
	if k, ok := fieldCache.Load(t); ok {
		return k.(fieldKeys)
	}
	keys := fieldKeys{}
	for f := range t.Fields() {
		tag := f.Tag.Get("json")
		if tag == "-" || (!f.IsExported() && !f.Anonymous) {
			continue
		}
		name, _, _ := strings.Cut(tag, ",")
		ft := f.Type
		if ft.Kind() == reflect.Pointer {
			ft = ft.Elem()
		}
		if f.Anonymous && name == "" && ft.Kind() == reflect.Struct {
			for k, v := range keysOf(ft) {
				keys[k] = v
			}
			continue
		}
		if name == "" {
			name = f.Name
		}
		keys[name] = f.Type
	}
	for _, old := range oldKeys[t] {
		keys[old] = reflect.TypeFor[string]()
	}
	fieldCache.Store(t, keys)
	return keys
}

// value checks the value at c.pos, to be decoded into t (nil: any).
func (c *keyChecker) value(t reflect.Type) error {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	c.space()
	switch c.b[c.pos] {
	case '{':
		return c.object(t)
	case '[':
		var elem reflect.Type
		if t != nil && (t.Kind() == reflect.Slice || t.Kind() == reflect.Array) {
			elem = t.Elem()
		}
		c.pos++
		for c.space(); c.b[c.pos] != ']'; c.space() {
			if err := c.value(elem); err != nil {
				return err
			}
			c.space()
			if c.b[c.pos] == ',' {
				c.pos++
			}
		}
		c.pos++
	case '"':
		c.skipString()
	default:
		for c.pos < len(c.b) && !strings.ContainsRune(",]} \t\r\n", rune(c.b[c.pos])) {
			c.pos++
		}
	}
	return nil
}

// object checks an object's keys against t's and each value against its
// field's type.
func (c *keyChecker) object(t reflect.Type) error {
	var fields fieldKeys
	var elem reflect.Type
	if t != nil && t.Kind() == reflect.Struct {
		fields = keysOf(t)
	} else if t != nil && t.Kind() == reflect.Map {
		elem = t.Elem()
	}
	seen := map[string]int{}
	c.pos++
	for c.space(); c.b[c.pos] != '}'; c.space() {
		at := c.pos
		key := c.key()
		if first, dup := seen[key]; dup {
			return &Error{Line: c.line(at), Msg: fmt.Sprintf("key %q is given twice in one object (lines %d and %d): readers differ on which counts; keep one", key, c.line(first), c.line(at))}
		}
		seen[key] = at
		vt := elem
		if fields != nil {
			var known bool
			if vt, known = fields[key]; !known {
				if want := foldMatch(fields, key); want != "" {
					return &Error{Line: c.line(at), Msg: fmt.Sprintf("key %q is not a run.json key: keys are case-sensitive, and the key is %q", key, want)}
				}
			}
		}
		c.space()
		c.pos++ // ':'
		if err := c.value(vt); err != nil {
			return err
		}
		c.space()
		if c.b[c.pos] == ',' {
			c.pos++
		}
	}
	c.pos++
	return nil
}

// foldMatch is the declared key that key equals but for case, "" if none.
func foldMatch(fields fieldKeys, key string) string {
	for k := range fields {
		if strings.EqualFold(k, key) {
			return k
		}
	}
	return ""
}

// key reads the object key at c.pos, its escapes decoded.
func (c *keyChecker) key() string {
	start := c.pos
	c.skipString()
	raw := c.b[start:c.pos]
	if bytes.IndexByte(raw, '\\') < 0 {
		return string(raw[1 : len(raw)-1])
	}
	var s string
	json.Unmarshal(raw, &s) // valid JSON: cannot fail
	return s
}

// skipString moves c.pos past the string that opens at it.
func (c *keyChecker) skipString() {
	c.pos++
	for c.b[c.pos] != '"' {
		if c.b[c.pos] == '\\' {
			c.pos++
		}
		c.pos++
	}
	c.pos++
}

func (c *keyChecker) space() {
	for c.pos < len(c.b) && (c.b[c.pos] == ' ' || c.b[c.pos] == '\t' || c.b[c.pos] == '\r' || c.b[c.pos] == '\n') {
		c.pos++
	}
}

// line is the line of offset off, from 1.
func (c *keyChecker) line(off int) int { return 1 + bytes.Count(c.b[:off], []byte("\n")) }
