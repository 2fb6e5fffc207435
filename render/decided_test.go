package render

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// decisionCalls are the decision layer's entry points that make or remake
// a judgment: the package functions by name, the methods by name with the
// receiver they are forbidden on (any receiver but the model's dec).
var decisionCalls = map[string]bool{
	"Decide": true, "Judge": true, "Testable": true, "ResolvingPower": true,
	"NoiseFloors": true, "ClientBound": true, "PairTest": true, "Holm": true, "WelchLog": true,
}

// TestPagesReadTheDecidedModel keeps render's page and export files
// reading the one decided model (verdict.Decided, built in rankCells):
// none of them calls a decision function of parse/verdict, nor asks a
// family for its power, which would decide again while writing.
func TestPagesReadTheDecidedModel(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range decisionCallsIn(f) {
			t.Errorf("%s: calls %s: pages read verdict.Decided, built once", fset.Position(bad.Pos()), bad.Sel.Name)
		}
	}
}

// decisionCallsIn are the calls in f of verdict.X for a decision function
// X, and of .Power or .RunResolves on anything but m.dec.
func decisionCallsIn(f *ast.File) []*ast.SelectorExpr {
	var out []*ast.SelectorExpr
	ast.Inspect(f, func(n ast.Node) bool {
		call, ok := n.(*ast.CallExpr)
		if !ok {
			return true
		}
		sel, ok := call.Fun.(*ast.SelectorExpr)
		if !ok {
			return true
		}
		switch x := sel.X.(type) {
		case *ast.Ident:
			if x.Name == "verdict" && decisionCalls[sel.Sel.Name] {
				out = append(out, sel)
			}
			if x.Name != "verdict" && (sel.Sel.Name == "Power" || sel.Sel.Name == "RunResolves") {
				out = append(out, sel)
			}
		case *ast.SelectorExpr:
			if x.Sel.Name != "dec" && (sel.Sel.Name == "Power" || sel.Sel.Name == "RunResolves") {
				out = append(out, sel)
			}
		}
		return true
	})
	return out
}
