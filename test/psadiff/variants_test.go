package psadiff

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestVariants checks the generator offline: the same pods every run,
// unique names, every edit used, no two edits of one dimension in a pod.
func TestVariants(t *testing.T) {
	a, b := Variants(600), Variants(600)
	if len(a) != 600 {
		t.Fatalf("got %d variants, want 600", len(a))
	}
	used := map[string]int{}
	names := map[string]bool{}
	dimOf := map[string]string{}
	for _, e := range edits {
		dimOf[e.name] = e.dim
	}
	for i := range a {
		ja, _ := json.Marshal(a[i].Pod)
		jb, _ := json.Marshal(b[i].Pod)
		if string(ja) != string(jb) {
			t.Fatalf("variant %d differs between runs:\n%s\n%s", i, ja, jb)
		}
		if names[a[i].Name] {
			t.Errorf("name %s twice", a[i].Name)
		}
		names[a[i].Name] = true
		if got := a[i].Pod["metadata"].(map[string]any)["name"]; got != a[i].Name {
			t.Errorf("variant %s names its pod %v", a[i].Name, got)
		}
		dims := map[string]bool{}
		for _, e := range a[i].Edits[1:] {
			used[e]++
			if dims[dimOf[e]] {
				t.Errorf("%s: two edits of dimension %s", a[i], dimOf[e])
			}
			dims[dimOf[e]] = true
		}
	}
	for _, e := range edits {
		if used[e.name] < 3 {
			t.Errorf("edit %q used %d times, want at least 3", e.name, used[e.name])
		}
	}
	if s := a[1].String(); !strings.HasPrefix(s, "v001 (restricted base; ") {
		t.Errorf("String() = %q", s)
	}
}
