package manifest_test

import (
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

// badDir is the bad-input corpus; testdata/bad/README.md says what each
// file must produce.
var badDir = filepath.Join("..", "testdata", "bad")

// load runs manifest.Load on paths and fails the test on a panic or an
// error (bad input is a Problem, never an error).
func load(t *testing.T, paths ...string) *loader.Result {
	t.Helper()
	var res *loader.Result
	var err error
	func() {
		defer func() {
			if r := recover(); r != nil {
				t.Fatalf("Load(%v) panicked: %v\n%s", paths, r, debug.Stack())
			}
		}()
		res, err = loader.Load(paths, loader.Options{})
	}()
	if err != nil {
		t.Fatalf("Load(%v): %v", paths, err)
	}
	return res
}

type wantProblem struct {
	rule      string
	line, col int
	msg       string
}

type wantField struct {
	path []string
	pos  manifest.Pos
}

type wantObject struct {
	name   string // kind/name as String() prints it
	doc    int
	fields []wantField
}

func TestBadInputCorpus(t *testing.T) {
	cases := []struct {
		file    string
		problem *wantProblem
		objects []wantObject
	}{
		{file: "alias-bomb.yaml", problem: &wantProblem{"invalid-yaml", 12, 10, "alias bomb"}},
		{file: "bad-json.json", problem: &wantProblem{"invalid-yaml", 4, 3, "did not find expected ',' or '}'"}},
		{file: "binary.yaml", problem: &wantProblem{"invalid-yaml", 1, 8, "binary data (NUL byte at offset 7)"}},
		{file: "bom.yaml", objects: []wantObject{{"configmap/with-bom", 0, []wantField{
			{nil, manifest.Pos{Line: 1, Col: 1}},
			{[]string{"metadata", "name"}, manifest.Pos{Line: 4, Col: 9}},
			{[]string{"data", "key"}, manifest.Pos{Line: 6, Col: 8}},
		}}}},
		{file: "cr-only.yaml", objects: []wantObject{{"configmap/classic-mac", 0, []wantField{
			// a lone "\r" is no line break for editors, git or GitHub
			{[]string{"metadata", "name"}, manifest.Pos{Line: 1, Col: 50}},
			{[]string{"data", "key"}, manifest.Pos{Line: 1, Col: 75}},
		}}}},
		{file: "crlf.yaml", objects: []wantObject{{"configmap/crlf", 0, []wantField{
			{[]string{"metadata", "name"}, manifest.Pos{Line: 4, Col: 9}},
			{[]string{"data", "key"}, manifest.Pos{Line: 6, Col: 8}},
		}}}},
		{file: "deep-nesting.yaml", problem: &wantProblem{"invalid-yaml", 6, 3, "exceeded max depth of 10000"}},
		{file: "duplicate-keys.yaml",
			problem: &wantProblem{"duplicate-key", 9, 3, `duplicate key "replicas" (first defined at line 6)`},
			objects: []wantObject{{"deployment.apps/web", 0, []wantField{
				{[]string{"spec", "replicas"}, manifest.Pos{Line: 6, Col: 13}},
			}}}},
		{file: "empty-documents.yaml", objects: []wantObject{{"configmap/after-empties", 0, []wantField{
			{nil, manifest.Pos{Line: 10, Col: 1}},
			{[]string{"metadata", "name"}, manifest.Pos{Line: 13, Col: 9}},
			{[]string{"data", "key"}, manifest.Pos{Line: 15, Col: 8}},
		}}}},
		{file: "good.json", objects: []wantObject{{"service/web", 0, []wantField{
			{nil, manifest.Pos{Line: 1, Col: 1}},
			{[]string{"metadata", "name"}, manifest.Pos{Line: 5, Col: 13}},
			{[]string{"metadata", "namespace"}, manifest.Pos{Line: 6, Col: 18}},
			{[]string{"spec", "selector", "app"}, manifest.Pos{Line: 9, Col: 25}},
			{[]string{"spec", "ports", "0", "port"}, manifest.Pos{Line: 11, Col: 16}},
			{[]string{"spec", "ports", "0", "targetPort"}, manifest.Pos{Line: 11, Col: 34}},
		}}}},
		{file: "inline-document.yaml", problem: &wantProblem{"invalid-yaml", 5, 1, `without a "---" line of its own`}},
		{file: "invalid-utf8.yaml", problem: &wantProblem{"invalid-yaml", 6, 11, "invalid UTF-8 (byte 0xfc"}},
		{file: "line-separator.yaml", objects: []wantObject{{"configmap/pasted", 0, []wantField{
			// U+2028 and U+2029 are line breaks to yaml.v3, not to files
			{[]string{"metadata", "annotations", "description"}, manifest.Pos{Line: 6, Col: 18}},
			{[]string{"data"}, manifest.Pos{Line: 7, Col: 1}},
			{[]string{"data", "key"}, manifest.Pos{Line: 8, Col: 8}},
		}}}},
		{file: "list.yaml", problem: &wantProblem{"not-an-object", 1, 1, "document is a list"}},
		{file: "nested-lists.yaml", problem: &wantProblem{"invalid-yaml", 6, 205, "nested more than 200 levels deep"}},
		{file: "scalar.yaml", problem: &wantProblem{"not-an-object", 2, 1, "document is a scalar"}},
		{file: "tabs.yaml", problem: &wantProblem{"invalid-yaml", 6, 1, "tab character in indentation"}},
		{file: "unclosed-flow.yaml", problem: &wantProblem{"invalid-yaml", 5, 11, "did not find expected ',' or '}'"}},
		{file: "undefined-alias.yaml", problem: &wantProblem{"invalid-yaml", 5, 11, "unknown anchor 'nowhere' referenced"}},
		{file: "utf16.yaml", problem: &wantProblem{"invalid-yaml", 1, 1, "UTF-16"}},
	}
	seen := map[string]bool{"README.md": true}
	for _, c := range cases {
		seen[c.file] = true
		t.Run(c.file, func(t *testing.T) {
			path := filepath.Join(badDir, c.file)
			res := load(t, path)
			switch {
			case c.problem == nil && len(res.Problems) > 0:
				t.Errorf("unexpected problems: %v", res.Problems)
			case c.problem != nil && len(res.Problems) != 1:
				t.Errorf("got %d problems, want 1: %v", len(res.Problems), res.Problems)
			case c.problem != nil:
				p, w := res.Problems[0], c.problem
				if p.File != path || p.Rule != w.rule || p.Line != w.line || p.Col != w.col || !strings.Contains(p.Message, w.msg) {
					t.Errorf("got %s [%s]\nwant %s:%d:%d: ...%s... [%s]", p, p.Rule, path, w.line, w.col, w.msg, w.rule)
				}
			}
			if len(res.Objects) != len(c.objects) {
				t.Fatalf("got %d objects %v, want %d", len(res.Objects), res.Objects, len(c.objects))
			}
			for i, w := range c.objects {
				o := res.Objects[i]
				if o.String() != w.name || o.Doc != w.doc || o.File != path {
					t.Errorf("object %d = %s doc %d in %s, want %s doc %d", i, o, o.Doc, o.File, w.name, w.doc)
				}
				for _, f := range w.fields {
					if got := o.Pos(f.path...); got != f.pos {
						t.Errorf("%s Pos(%v) = %d:%d, want %d:%d", o, f.path, got.Line, got.Col, f.pos.Line, f.pos.Col)
					}
				}
			}
		})
	}
	// every file of the corpus has a case
	files, err := os.ReadDir(badDir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		if !seen[f.Name()] {
			t.Errorf("testdata/bad/%s has no case in TestBadInputCorpus", f.Name())
		}
	}
}

// TestAliasBombIsCheap checks the billion-laughs file is refused in well
// under a second without expanding it (9^9 nodes if it were).
func TestAliasBombIsCheap(t *testing.T) {
	path := filepath.Join(badDir, "alias-bomb.yaml")
	load(t, path) // warm up: file cache, lazily built tables
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	start := time.Now()
	res := load(t, path)
	elapsed := time.Since(start)
	runtime.ReadMemStats(&after)
	if len(res.Objects) != 0 || len(res.Problems) != 1 || !strings.Contains(res.Problems[0].Message, "alias bomb") {
		t.Fatalf("alias bomb not refused: %v %v", res.Objects, res.Problems)
	}
	alloc := after.TotalAlloc - before.TotalAlloc
	t.Logf("alias bomb refused in %v, %.1f MiB allocated", elapsed, float64(alloc)/(1<<20))
	if elapsed > 500*time.Millisecond {
		t.Errorf("alias bomb took %v, want well under a second", elapsed)
	}
	if alloc > 64<<20 {
		t.Errorf("alias bomb allocated %.1f MiB, want < 64 MiB", float64(alloc)/(1<<20))
	}
}

// TestHugeFiles loads ~50 MB files made in a temp dir (never committed):
// many small documents must all load, one huge document must be refused
// without being parsed.
func TestHugeFiles(t *testing.T) {
	const size = 50 << 20
	dir := t.TempDir()

	t.Run("many-documents", func(t *testing.T) {
		var b strings.Builder
		b.Grow(size + 4096)
		value := strings.Repeat("0123456789abcdef", 48) // 768 bytes
		n := 0
		for b.Len() < size {
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: cm-%d\n  labels: {app: web, n: %q}\ndata:\n  a: %s\n  b: |\n    %s\n", n, fmt.Sprint(n), value, value)
			n++
		}
		path := filepath.Join(dir, "many.yaml")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		res := load(t, path)
		elapsed := time.Since(start)
		t.Logf("%d documents, %.1f MiB, loaded in %v", n, float64(b.Len())/(1<<20), elapsed)
		if len(res.Problems) != 0 {
			t.Fatalf("problems: %v", res.Problems[:min(3, len(res.Problems))])
		}
		if len(res.Objects) != n {
			t.Fatalf("loaded %d objects, want %d", len(res.Objects), n)
		}
		last := res.Objects[n-1]
		if last.Name != fmt.Sprintf("cm-%d", n-1) || last.Doc != n-1 {
			t.Errorf("last object %s doc %d", last, last.Doc)
		}
		// each document is 10 lines with its "---": its name is on line 10*i + 5
		if got := last.Pos("metadata", "name"); got != (manifest.Pos{Line: 10*(n-1) + 5, Col: 9}) {
			t.Errorf("last object's name at %v, want %d:9", got, 10*(n-1)+5)
		}
		if elapsed > 60*time.Second {
			t.Errorf("loading %d documents took %v", n, elapsed)
		}
	})

	t.Run("one-huge-document", func(t *testing.T) {
		head := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: small\n---\n"
		var b strings.Builder
		b.Grow(size + 4096)
		b.WriteString(head)
		b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: huge\ndata:\n  blob: ")
		line := strings.Repeat("x", 1023) + "\n    "
		for b.Len() < size {
			b.WriteString(line)
		}
		b.WriteString("end\n")
		path := filepath.Join(dir, "huge.yaml")
		if err := os.WriteFile(path, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		start := time.Now()
		res := load(t, path)
		elapsed := time.Since(start)
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("50 MB document refused in %v, %.1f MiB allocated", elapsed, float64(alloc)/(1<<20))
		if len(res.Objects) != 1 || res.Objects[0].Name != "small" {
			t.Errorf("objects = %v, want only configmap/small", res.Objects)
		}
		if len(res.Problems) != 1 {
			t.Fatalf("problems = %v, want 1", res.Problems)
		}
		p := res.Problems[0]
		if p.Line != 6 || p.Col != 1 || p.Rule != "invalid-yaml" || !strings.Contains(p.Message, "document is 50.0 MiB") {
			t.Errorf("got %s [%s], want %s:6:1: document is 50.0 MiB ...", p, p.Rule, path)
		}
		if elapsed > 2*time.Second {
			t.Errorf("refusing a 50 MB document took %v; it must not be parsed", elapsed)
		}
		// the file itself is read once (50 MiB); parsing it would be many times that
		if alloc > 128<<20 {
			t.Errorf("refusing a 50 MB document allocated %.1f MiB", float64(alloc)/(1<<20))
		}
	})
}
