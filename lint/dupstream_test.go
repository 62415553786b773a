package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// The streamed duplicate-object must make exactly the findings the rule
// makes on the whole loaded set: copies within one file and across files,
// three copies of one object, each pointing at the first.
func TestStreamDuplicatesMatchesRun(t *testing.T) {
	dir := t.TempDir()
	cm := func(name string) string {
		return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\n  namespace: ns\n", name)
	}
	files := map[string][]string{
		"a.yaml": {cm("one"), cm("two"), cm("one")},
		"b.yaml": {cm("three"), cm("two")},
		"c.yaml": {cm("one"), cm("three"), cm("four")},
	}
	for n, docs := range files {
		if err := os.WriteFile(filepath.Join(dir, n), []byte(strings.Join(docs, "---\n")), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, got := keptAndStreamed(t, dir, Options{Concurrency: 2})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("streamed differs from the whole set:\n got %+v\nwant %+v", got.Findings, want.Findings)
	}
	var at []string
	for _, f := range got.Findings {
		if f.Rule == duplicateRule {
			at = append(at, fmt.Sprintf("%s:%d %s", filepath.Base(f.File), f.Line, f.Message[strings.Index(f.Message, "first defined at "):]))
		}
	}
	wantAt := []string{
		"a.yaml:16 first defined at " + filepath.Join(dir, "a.yaml") + ":4; remove one copy or rename it",
		"b.yaml:10 first defined at " + filepath.Join(dir, "a.yaml") + ":10; remove one copy or rename it",
		"c.yaml:4 first defined at " + filepath.Join(dir, "a.yaml") + ":4; remove one copy or rename it",
		"c.yaml:10 first defined at " + filepath.Join(dir, "b.yaml") + ":4; remove one copy or rename it",
	}
	if !reflect.DeepEqual(at, wantAt) {
		t.Errorf("duplicate-object findings:\n got %q\nwant %q", at, wantAt)
	}
}
