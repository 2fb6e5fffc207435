package tomlfile

import (
	"encoding"
	"fmt"
	"reflect"
	"strings"

	"github.com/BurntSushi/toml"
)

// shapes refuses a value that is not a table where v wants a table (a map
// or a struct): the decoder leaves such a field empty without a word
// (env = ["A=1"] for env = { A = "1" }).
func (f *File) shapes(t reflect.Type, md toml.MetaData) error {
	for _, e := range f.order {
		k := toml.Key(strings.Split(e.key, "."))
		want := fieldType(t, k)
		if want == nil || !isTable(want) {
			continue
		}
		if got := md.Type(k...); got != "Hash" && got != "ArrayHash" {
			return fmt.Errorf("%s:%d: %s: want a table like { key = \"value\" }, got %s", f.Name, e.line, showKey(k[len(k)-1]), article(got))
		}
	}
	return nil
}

// fieldType is the Go type key k decodes into, nil when none does.
func fieldType(t reflect.Type, k toml.Key) reflect.Type {
	for _, piece := range k {
		for t.Kind() == reflect.Pointer || t.Kind() == reflect.Slice {
			t = t.Elem()
		}
		switch t.Kind() {
		case reflect.Map:
			t = t.Elem()
		case reflect.Struct:
			field, ok := fieldNamed(t, piece)
			if !ok {
				return nil
			}
			t = field.Type
		default:
			return nil
		}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t
}

func fieldNamed(t reflect.Type, name string) (reflect.StructField, bool) {
	for field := range t.Fields() {
		tag, _, _ := strings.Cut(field.Tag.Get("toml"), ",")
		if tag == name || tag == "" && strings.EqualFold(field.Name, name) {
			return field, true
		}
	}
	return reflect.StructField{}, false
}

var textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()

// isTable reports whether t is decoded from a TOML table.
func isTable(t reflect.Type) bool {
	if reflect.PointerTo(t).Implements(textUnmarshaler) {
		return false
	}
	return t.Kind() == reflect.Map || t.Kind() == reflect.Struct
}

func article(tomlType string) string {
	switch tomlType {
	case "":
		return "nothing"
	case "Array", "Integer":
		return "an " + strings.ToLower(tomlType)
	}
	return "a " + strings.ToLower(tomlType)
}
