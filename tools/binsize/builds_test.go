package main

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

func TestExportedListsFunctionsAndTypesNotGenericOnes(t *testing.T) {
	dir := t.TempDir()
	src := `package lib

type Plan struct{}
type plan struct{}
type Set[T any] []T
type (
	Options struct{}
	Mode int
)

func Run() {}
func run() {}
func Map[T any](x T) T { return x }
func (Plan) Show() {}
`
	if err := os.WriteFile(filepath.Join(dir, "lib.go"), []byte(src), 0o644); err != nil {
		t.Fatal(err)
	}
	got, err := exported(dir, []string{"lib.go"})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"(*@.Mode)(nil)", "(*@.Options)(nil)", "(*@.Plan)(nil)", "@.Run"}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("exported = %q, want %q", got, want)
	}
}

func TestMainSourceKeepsRefsAndParses(t *testing.T) {
	src := mainSource([]use{{Path: "example.com/a"}, {Path: "example.com/b", Refs: []string{"@.Run", "(*@.Plan)(nil)"}}})
	for _, want := range []string{"\t_ \"example.com/a\"\n", "\tp1 \"example.com/b\"\n", "\tp1.Run,\n", "\t(*p1.Plan)(nil),\n", "io.Copy(io.Discard, os.Stdin)"} {
		if !strings.Contains(src, want) {
			t.Errorf("mainSource lacks %q:\n%s", want, src)
		}
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "main.go", src, 0); err != nil {
		t.Errorf("mainSource does not parse: %v\n%s", err, src)
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "main.go", mainSource(nil), 0); err != nil {
		t.Errorf("mainSource(nil) does not parse: %v", err)
	}
}

func TestImportersAreDirectOnly(t *testing.T) {
	ps := []pkg{
		{Path: "sigs.k8s.io/kustomize/api/internal/plugins/loader", Imports: []string{"fmt", "plugin"}, Deps: []string{"fmt", "plugin"}},
		{Path: "sigs.k8s.io/kustomize/api/krusty", Imports: []string{"sigs.k8s.io/kustomize/api/internal/plugins/loader"}, Deps: []string{"plugin"}},
	}
	if got, want := importers(ps, "plugin"), []string{"sigs.k8s.io/kustomize/api/internal/plugins/loader"}; !reflect.DeepEqual(got, want) {
		t.Errorf("importers = %v, want %v", got, want)
	}
}

func TestCgoNoteNamesWhoImportsPlugin(t *testing.T) {
	s := buildSizes{real: 120 << 20, realRSSKiB: 60 << 10, realNoCgo: 90 << 20, realNoCgoRSSKiB: 45 << 10}
	img := image{Sections: map[string]int64{"dynsym": 14 << 20}}
	note := cgoNote(s, img, []string{"example.com/loader"})
	for _, want := range []string{"120.0 MiB", "**90.0 MiB**", "**45 MiB**", "`example.com/loader`", "(14.0 MiB here)"} {
		if !strings.Contains(note, want) {
			t.Errorf("cgoNote lacks %q:\n%s", want, note)
		}
	}
	if note := cgoNote(s, img, nil); strings.Contains(note, "plugin") {
		t.Errorf("cgoNote without importers speaks of the plugin package:\n%s", note)
	}
}
