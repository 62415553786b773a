package main

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
)

// lifecycle is one row of the API lifecycle table. Releases are "1.16" or "".
// Replacement is "apps/v1 Deployment" (core: "v1 Pod") or "". The JSON form
// is read by package internal/kubeapi (its Lifecycle type).
type lifecycle struct {
	Group       string `json:"group"`
	Version     string `json:"version"`
	Kind        string `json:"kind"`
	Introduced  string `json:"introduced,omitempty"`
	Deprecated  string `json:"deprecated,omitempty"`
	Removed     string `json:"removed,omitempty"`
	Replacement string `json:"replacement,omitempty"`
}

const lifecycleFile = "zz_generated.prerelease-lifecycle.go"

// apiLifecycles parses every zz_generated.prerelease-lifecycle.go of a
// k8s.io/api module. The package directory <group>/<version> gives the
// version; the group name is the package's "+groupName=" marker, else its
// GroupName constant, else the directory name. List kinds are skipped.
func apiLifecycles(apiDir string) ([]lifecycle, error) {
	var files []string
	err := filepath.WalkDir(apiDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && d.Name() == lifecycleFile {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no %s under %s", lifecycleFile, apiDir)
	}
	sort.Strings(files)

	var out []lifecycle
	for _, f := range files {
		pkgDir := filepath.Dir(f)
		group, err := groupName(pkgDir)
		if err != nil {
			return nil, err
		}
		rows, err := parseLifecycleFile(f, group, filepath.Base(pkgDir))
		if err != nil {
			return nil, err
		}
		out = append(out, rows...)
	}
	sort.Slice(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		return a.Kind < b.Kind
	})
	return out, nil
}

// parseLifecycleFile reads the generated methods
//
//	func (in *Kind) APILifecycleIntroduced() (major, minor int) { return 1, 16 }
//	func (in *Kind) APILifecycleReplacement() schema.GroupVersionKind {
//		return schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Deployment"}
//	}
//
// and fails on any method of another shape, so a generator change is noticed.
func parseLifecycleFile(path, group, version string) ([]lifecycle, error) {
	file, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	byKind := map[string]*lifecycle{}
	var kinds []string
	for _, decl := range file.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv == nil || !strings.HasPrefix(fn.Name.Name, "APILifecycle") {
			continue
		}
		kind, err := receiverType(fn)
		if err != nil {
			return nil, fmt.Errorf("%s: %s: %v", path, fn.Name.Name, err)
		}
		if strings.HasSuffix(kind, "List") {
			continue
		}
		row := byKind[kind]
		if row == nil {
			row = &lifecycle{Group: group, Version: version, Kind: kind}
			byKind[kind] = row
			kinds = append(kinds, kind)
		}
		results, err := returnValues(fn)
		if err != nil {
			return nil, fmt.Errorf("%s: %s.%s: %v", path, kind, fn.Name.Name, err)
		}
		switch fn.Name.Name {
		case "APILifecycleIntroduced":
			row.Introduced, err = release(results)
		case "APILifecycleDeprecated":
			row.Deprecated, err = release(results)
		case "APILifecycleRemoved":
			row.Removed, err = release(results)
		case "APILifecycleReplacement":
			row.Replacement, err = replacement(results)
		default:
			err = fmt.Errorf("unknown lifecycle method")
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %s.%s: %v", path, kind, fn.Name.Name, err)
		}
	}
	out := make([]lifecycle, 0, len(kinds))
	for _, k := range kinds {
		out = append(out, *byKind[k])
	}
	return out, nil
}

func receiverType(fn *ast.FuncDecl) (string, error) {
	if len(fn.Recv.List) != 1 {
		return "", fmt.Errorf("unexpected receiver")
	}
	t := fn.Recv.List[0].Type
	if star, ok := t.(*ast.StarExpr); ok {
		t = star.X
	}
	id, ok := t.(*ast.Ident)
	if !ok {
		return "", fmt.Errorf("unexpected receiver type")
	}
	return id.Name, nil
}

func returnValues(fn *ast.FuncDecl) ([]ast.Expr, error) {
	if fn.Body == nil || len(fn.Body.List) != 1 {
		return nil, fmt.Errorf("body is not a single return statement")
	}
	ret, ok := fn.Body.List[0].(*ast.ReturnStmt)
	if !ok {
		return nil, fmt.Errorf("body is not a single return statement")
	}
	return ret.Results, nil
}

// release turns `return 1, 16` into "1.16".
func release(results []ast.Expr) (string, error) {
	if len(results) != 2 {
		return "", fmt.Errorf("want 2 results, got %d", len(results))
	}
	var parts [2]string
	for i, r := range results {
		lit, ok := r.(*ast.BasicLit)
		if !ok || lit.Kind != token.INT {
			return "", fmt.Errorf("result %d is not an integer literal", i)
		}
		n, err := strconv.Atoi(lit.Value)
		if err != nil {
			return "", err
		}
		parts[i] = strconv.Itoa(n)
	}
	return parts[0] + "." + parts[1], nil
}

// replacement turns `return schema.GroupVersionKind{Group: "apps", Version:
// "v1", Kind: "Deployment"}` into "apps/v1 Deployment".
func replacement(results []ast.Expr) (string, error) {
	if len(results) != 1 {
		return "", fmt.Errorf("want 1 result, got %d", len(results))
	}
	lit, ok := results[0].(*ast.CompositeLit)
	if !ok {
		return "", fmt.Errorf("result is not a composite literal")
	}
	fields := map[string]string{}
	for _, e := range lit.Elts {
		kv, ok := e.(*ast.KeyValueExpr)
		if !ok {
			return "", fmt.Errorf("unkeyed GroupVersionKind field")
		}
		key, ok1 := kv.Key.(*ast.Ident)
		val, ok2 := kv.Value.(*ast.BasicLit)
		if !ok1 || !ok2 || val.Kind != token.STRING {
			return "", fmt.Errorf("GroupVersionKind field is not a string literal")
		}
		s, err := strconv.Unquote(val.Value)
		if err != nil {
			return "", err
		}
		fields[key.Name] = s
	}
	if fields["Version"] == "" || fields["Kind"] == "" {
		return "", nil
	}
	gv := fields["Version"]
	if fields["Group"] != "" {
		gv = fields["Group"] + "/" + gv
	}
	return gv + " " + fields["Kind"], nil
}

// groupName finds the API group of a k8s.io/api package directory: the
// "// +groupName=" marker of its doc.go (or any file), else the GroupName
// constant (apps, batch, ... only have that), else the parent directory name.
func groupName(pkgDir string) (string, error) {
	files, err := filepath.Glob(filepath.Join(pkgDir, "*.go"))
	if err != nil {
		return "", err
	}
	sort.Strings(files)
	fset := token.NewFileSet()
	constName := ""
	for _, f := range files {
		base := filepath.Base(f)
		if strings.HasSuffix(base, "_test.go") || strings.HasPrefix(base, "zz_generated") {
			continue
		}
		file, err := parser.ParseFile(fset, f, nil, parser.ParseComments|parser.SkipObjectResolution)
		if err != nil {
			return "", err
		}
		for _, cg := range file.Comments {
			for _, c := range cg.List {
				text := strings.TrimSpace(strings.TrimPrefix(c.Text, "//"))
				if name, ok := strings.CutPrefix(text, "+groupName="); ok {
					return strings.TrimSpace(name), nil
				}
			}
		}
		if constName == "" {
			constName = groupNameConst(file)
		}
	}
	if constName != "" {
		return constName, nil
	}
	return filepath.Base(filepath.Dir(pkgDir)), nil
}

// groupNameConst returns the value of `const GroupName = "..."`, or "".
func groupNameConst(file *ast.File) string {
	for _, decl := range file.Decls {
		gd, ok := decl.(*ast.GenDecl)
		if !ok || gd.Tok != token.CONST {
			continue
		}
		for _, spec := range gd.Specs {
			vs := spec.(*ast.ValueSpec)
			for i, n := range vs.Names {
				if n.Name != "GroupName" || i >= len(vs.Values) {
					continue
				}
				if lit, ok := vs.Values[i].(*ast.BasicLit); ok && lit.Kind == token.STRING {
					if s, err := strconv.Unquote(lit.Value); err == nil {
						return s
					}
				}
			}
		}
	}
	return ""
}
