package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"strings"
	"testing"
)

// maxFuncLines bounds a product function of cmd/kubeplan, literals
// included: the command only wires flags to one engine call and one view.
const maxFuncLines = 40

// Every function (declared or literal) of the product files is at most
// maxFuncLines lines long, from its signature to its closing brace.
func TestNoLongFunctions(t *testing.T) {
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	checked := 0
	for _, name := range files {
		if strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		ast.Inspect(f, func(n ast.Node) bool {
			fn, body := funcOf(n)
			if body == nil {
				return true
			}
			checked++
			lines := fset.Position(body.Rbrace).Line - fset.Position(n.Pos()).Line + 1
			if lines > maxFuncLines {
				t.Errorf("%s: %s is %d lines long (at most %d): move its logic to an engine package or its output to render", fset.Position(n.Pos()), fn, lines, maxFuncLines)
			}
			return true
		})
	}
	if checked < 50 {
		t.Fatalf("only %d functions checked: the walk lost the product files", checked)
	}
}

// funcOf is the name and body of a function declaration or literal (the
// literal named "func literal"), nil for any other node.
func funcOf(n ast.Node) (string, *ast.BlockStmt) {
	switch x := n.(type) {
	case *ast.FuncDecl:
		return x.Name.Name, x.Body
	case *ast.FuncLit:
		return "func literal", x.Body
	}
	return "", nil
}
