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

// TestArchitectureLayers: the import layers ARCHITECTURE.md draws are the
// code's. Every package of kubeplan (tools/, test/ and internal/testing/
// aside) that imports another of ours is on a line of the layer diagram,
// and imports only from the lines below it, or from a package its own line
// names after it across an arrow ("apply -> health -> plan"); internal/*
// is below everything.
func TestArchitectureLayers(t *testing.T) {
	root := moduleRoot(t)
	data, err := os.ReadFile(filepath.Join(root, "ARCHITECTURE.md"))
	if err != nil {
		t.Fatal(err)
	}
	level, after := layers(t, string(data))
	module := "github.com/kubeplan/kubeplan/"
	checked := 0
	for _, dirs := range packageDirs(t, root) {
		for _, dir := range dirs {
			if strings.HasPrefix(dir, "tools/") || strings.HasPrefix(dir, "test/") || strings.HasPrefix(dir, "internal/") {
				continue
			}
			imports := ownImports(t, filepath.Join(root, dir), module)
			if len(imports) == 0 {
				continue
			}
			lp, ok := level[dir]
			if !ok {
				t.Errorf("%s imports %s but is on no line of ARCHITECTURE.md's layers", dir, strings.Join(imports, ", "))
				continue
			}
			for _, q := range imports {
				checked++
				if strings.HasPrefix(q, "internal/") && !strings.HasPrefix(q, "internal/testing/") {
					continue
				}
				lq, ok := level[q]
				switch {
				case !ok:
					t.Errorf("%s imports %s, which is on no line of the layers", dir, q)
				case lq > lp || (lq == lp && !after[dir][q]):
					t.Errorf("%s imports %s: an arrow upward in ARCHITECTURE.md's layers", dir, q)
				}
			}
		}
	}
	if checked < 40 {
		t.Fatalf("checked %d imports: is the layer diagram found?", checked)
	}
}

// layers reads the diagram after "No import runs upward": each package's
// line, counted from the bottom, and, on one line, which packages come
// after which across an arrow.
func layers(t *testing.T, text string) (level map[string]int, after map[string]map[string]bool) {
	t.Helper()
	_, rest, ok := strings.Cut(text, "No import runs upward")
	if !ok {
		t.Fatal("ARCHITECTURE.md has no layers (\"No import runs upward\")")
	}
	_, rest, _ = strings.Cut(rest, "```\n")
	block, _, _ := strings.Cut(rest, "```")
	lines := strings.Split(strings.TrimRight(block, "\n"), "\n")
	level, after = map[string]int{}, map[string]map[string]bool{}
	for i, l := range lines {
		l, _, _ = strings.Cut(l, "(") // a note
		for _, group := range regexp.MustCompile(`\s{2,}`).Split(strings.TrimSpace(l), -1) {
			var seen []string
			for _, step := range strings.Split(group, "->") {
				var here []string
				for _, p := range strings.Split(step, ",") {
					if p = strings.TrimSpace(p); p != "" && p != "internal/*" {
						here = append(here, p)
						level[p] = len(lines) - i
					}
				}
				for _, a := range seen {
					for _, b := range here {
						if after[a] == nil {
							after[a] = map[string]bool{}
						}
						after[a][b] = true
					}
				}
				seen = append(seen, here...)
			}
		}
	}
	return level, after
}

// ownImports are the module's packages the non-test files in dir import,
// as paths relative to the module.
func ownImports(t *testing.T, dir, module string) []string {
	t.Helper()
	seen := map[string]bool{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	var out []string
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, filepath.Join(dir, e.Name()), nil, parser.ImportsOnly)
		if err != nil {
			t.Fatal(err)
		}
		for _, imp := range f.Imports {
			p := strings.Trim(imp.Path.Value, `"`)
			if rel, ok := strings.CutPrefix(p, module); ok && !seen[rel] {
				seen[rel] = true
				out = append(out, rel)
			}
		}
	}
	return out
}
