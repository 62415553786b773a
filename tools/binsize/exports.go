package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"slices"
)

// exported lists what a generated main references of the package in
// dir, made of files, so that the linker keeps what kubeplan's commands
// could call: each exported function (F) and a nil pointer to each
// exported type ((*T)(nil)), generic ones left out (they have no value
// without type arguments). @ stands for the package's name in the main.
func exported(dir string, files []string) ([]string, error) {
	fset := token.NewFileSet()
	var out []string
	for _, name := range files {
		f, err := parser.ParseFile(fset, filepath.Join(dir, name), nil, parser.SkipObjectResolution)
		if err != nil {
			return nil, err
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil && d.Name.IsExported() && d.Type.TypeParams == nil {
					out = append(out, "@."+d.Name.Name)
				}
			case *ast.GenDecl:
				for _, s := range d.Specs {
					if ts, ok := s.(*ast.TypeSpec); ok && ts.Name.IsExported() && ts.TypeParams == nil {
						out = append(out, "(*@."+ts.Name.Name+")(nil)")
					}
				}
			}
		}
	}
	slices.Sort(out)
	return out, nil
}
