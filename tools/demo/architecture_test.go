package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// spanText is a code span's content.
var spanText = regexp.MustCompile("`([^`]+)`")

// goName is a Go identifier as ARCHITECTURE.md names one: pkg.Name or
// pkg.Type.Member, pkg being the last element of a package's path.
var goName = regexp.MustCompile(`^([a-z][a-z0-9]*)\.([A-Z]\w*)(?:\.([A-Z]\w*))?$`)

// TestArchitectureNames: every repository path ARCHITECTURE.md names in a
// code span exists (a pattern matches at least one file), every Go name it
// gives as pkg.Name or pkg.Type.Member is declared in that package, and
// every relative link leads to a file, so the page cannot fall behind a
// move or a rename. A bare file name ("load.go") is refused: the page names
// files with their directory.
func TestArchitectureNames(t *testing.T) {
	root := moduleRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	pkgs := packageDirs(t, root)
	decls := map[string]map[string]bool{}
	paths, names := 0, 0
	for i, l := range unfenced(string(data)) {
		at := func(format string, args ...any) {
			t.Helper()
			t.Errorf("ARCHITECTURE.md:%d: "+format, append([]any{i + 1}, args...)...)
		}
		for _, m := range spanText.FindAllStringSubmatch(l, -1) {
			s := m[1]
			if p, ok := repoPath(root, s); ok {
				paths++
				if matches, _ := filepath.Glob(filepath.Join(root, filepath.FromSlash(p))); len(matches) == 0 {
					at("`%s`: no such file or directory", s)
				}
				continue
			}
			if !strings.ContainsAny(s, " /") && strings.HasSuffix(s, ".go") {
				at("`%s`: name the file with its directory", s)
				continue
			}
			g := goName.FindStringSubmatch(s)
			if g == nil {
				continue
			}
			dirs := pkgs[g[1]]
			if len(dirs) == 0 {
				continue // not one of ours (a word like kubeplan.yaml)
			}
			names++
			if len(dirs) > 1 {
				at("`%s`: package name %s is ambiguous (%s)", s, g[1], strings.Join(dirs, ", "))
				continue
			}
			if decls[dirs[0]] == nil {
				decls[dirs[0]] = declared(t, filepath.Join(root, dirs[0]))
			}
			want := g[2]
			if g[3] != "" {
				want = g[2] + "." + g[3]
			}
			if !decls[dirs[0]][want] {
				at("`%s`: %s declares no %s", s, dirs[0], want)
			}
		}
		for _, m := range mdLink.FindAllStringSubmatch(prose(l)[0], -1) {
			target, _, _ := strings.Cut(m[1], "#")
			if target == "" || strings.Contains(target, "://") {
				continue
			}
			if _, err := os.Stat(filepath.Join(root, filepath.FromSlash(target))); err != nil {
				at("link %s: no such file", m[1])
			}
		}
	}
	t.Logf("checked %d paths and %d Go names", paths, names)
	if paths < 30 || names < 30 {
		t.Fatalf("checked %d paths and %d Go names: is the parser broken?", paths, names)
	}
}

// repoPath returns the repository path a code span names: one with a
// slash, or a known extension, whose first element is at the top of the
// repository (so `charts/`, a chart's directory, is not one). A trailing
// "/" or "/..." names the directory.
func repoPath(root, s string) (string, bool) {
	if strings.ContainsAny(s, " :=<>") || strings.HasPrefix(s, ".") || strings.HasPrefix(s, "/") {
		return "", false
	}
	if !strings.Contains(s, "/") && !strings.HasSuffix(s, ".md") {
		return "", false
	}
	p := strings.TrimSuffix(strings.TrimSuffix(s, "/..."), "/")
	first, _, _ := strings.Cut(p, "/")
	if _, err := os.Stat(filepath.Join(root, first)); err != nil {
		return "", false
	}
	return p, true
}

// packageDirs maps the name of each Go package of the module (its
// directory's last element) to the directories that hold one by that
// name, testdata and separate modules left out.
func packageDirs(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if !d.IsDir() {
			return nil
		}
		rel, _ := filepath.Rel(root, p)
		name := d.Name()
		if rel != "." && (strings.HasPrefix(name, ".") || name == "testdata" || name == "bin") {
			return filepath.SkipDir
		}
		if rel != "." {
			if _, err := os.Stat(filepath.Join(p, "go.mod")); err == nil {
				return filepath.SkipDir // testcluster/, tools/image: modules of their own
			}
		}
		if goFiles, _ := filepath.Glob(filepath.Join(p, "*.go")); len(goFiles) > 0 && rel != "." {
			out[name] = append(out[name], filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// declared is what the package in dir declares, its tests left out: its
// top-level names, and Type.Member for the methods and struct fields of
// its types.
func declared(t *testing.T, dir string) map[string]bool {
	t.Helper()
	fset := token.NewFileSet()
	out := map[string]bool{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.SkipObjectResolution)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			switch d := d.(type) {
			case *ast.FuncDecl:
				if d.Recv == nil {
					out[d.Name.Name] = true
				} else {
					out[receiverType(d.Recv.List[0].Type)+"."+d.Name.Name] = true
				}
			case *ast.GenDecl:
				addSpecs(out, d.Specs)
			}
		}
	}
	return out
}

// addSpecs records the names of a declaration's specs and, for a struct
// type, its fields as Type.Field.
func addSpecs(out map[string]bool, specs []ast.Spec) {
	for _, s := range specs {
		switch s := s.(type) {
		case *ast.ValueSpec:
			for _, n := range s.Names {
				out[n.Name] = true
			}
		case *ast.TypeSpec:
			out[s.Name.Name] = true
			st, ok := s.Type.(*ast.StructType)
			if !ok {
				continue
			}
			for _, f := range st.Fields.List {
				for _, n := range f.Names {
					out[s.Name.Name+"."+n.Name] = true
				}
				if len(f.Names) == 0 { // embedded: named by its type
					out[s.Name.Name+"."+receiverType(f.Type)] = true
				}
			}
		}
	}
}

// receiverType is the name of a receiver's (or an embedded field's) type.
func receiverType(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.StarExpr:
		return receiverType(e.X)
	case *ast.IndexExpr:
		return receiverType(e.X)
	case *ast.SelectorExpr:
		return e.Sel.Name
	case *ast.Ident:
		return e.Name
	}
	return ""
}
