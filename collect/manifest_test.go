package collect_test

import (
	"fmt"
	"reflect"
	"testing"
	"time"

	"github.com/fairbench/fairbench/parse"
	"github.com/fairbench/fairbench/parse/rundir"
	"github.com/fairbench/fairbench/parse/runjson"
)

// fill sets every field reachable from v to a value of its own (strings,
// numbers, one element per slice and map, a time per time), so that a field
// lost on the way shows as a difference.
func fill(v reflect.Value, n *int) {
	*n++
	switch v.Kind() {
	case reflect.String:
		v.SetString(fmt.Sprintf("s%d", *n))
	case reflect.Int, reflect.Int64:
		v.SetInt(int64(*n))
	case reflect.Float64:
		v.SetFloat(float64(*n) + 0.25)
	case reflect.Bool:
		v.SetBool(true)
	case reflect.Pointer:
		v.Set(reflect.New(v.Type().Elem()))
		fill(v.Elem(), n)
	case reflect.Slice:
		v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		fill(v.Index(0), n)
	case reflect.Map:
		v.Set(reflect.MakeMap(v.Type()))
		e := reflect.New(v.Type().Elem()).Elem()
		fill(e, n)
		v.SetMapIndex(reflect.ValueOf(fmt.Sprintf("k%d", *n)), e)
	case reflect.Struct:
		if v.Type() == reflect.TypeFor[time.Time]() {
			v.Set(reflect.ValueOf(time.Date(2026, 12, 1, 9, 0, *n, 0, time.UTC)))
			return
		}
		for i := range v.NumField() {
			fill(v.Field(i), n)
		}
	default:
		panic(fmt.Sprintf("fill: no value for %s", v.Type()))
	}
}

// TestManifestRoundTrip writes a run.json with every field set through
// collect's run-dir writer and reads it with parse's loader: every field
// comes back equal.
func TestManifestRoundTrip(t *testing.T) {
	var want runjson.Manifest
	n := 0
	fill(reflect.ValueOf(&want).Elem(), &n)
	want.Schema, want.ID = runjson.SchemaVersion, "r1"
	// A rate_fraction is a share of capacity: runjson refuses one above 1.
	want.Measurements[0].RateFraction, want.NotOffered[0].RateFraction = 0.5, 0.75
	d, err := rundir.Create(t.TempDir(), want, []byte("name = \"x\"\n"))
	if err != nil {
		t.Fatal(err)
	}
	if err := d.Update(func(m *runjson.Manifest) { m.Errors = append(m.Errors, "late") }); err != nil {
		t.Fatal(err)
	}
	want.Errors = append(want.Errors, "late")
	run, err := parse.ReadRun(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	if run.Path != d.Path {
		t.Errorf("path %q, want %q", run.Path, d.Path)
	}
	if !reflect.DeepEqual(run.Manifest, want) {
		t.Errorf("read back\n%+v\nwant\n%+v", run.Manifest, want)
	}
	again, err := rundir.Load(d.Path)
	if err != nil {
		t.Fatal(err)
	}
	if got := again.Manifest(); !reflect.DeepEqual(got, want) {
		t.Errorf("collect read back\n%+v\nwant\n%+v", got, want)
	}
}
