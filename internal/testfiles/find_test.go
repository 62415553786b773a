package testfiles

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
)

func TestUnder(t *testing.T) {
	dir := t.TempDir()
	for _, f := range []string{"b/t.yaml", "a/t.yaml", "a/u.yaml", ".git/t.yaml", "c/.hidden/t.yaml", "c/other.yaml"} {
		p := filepath.Join(dir, filepath.FromSlash(f))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	got, err := Under(dir, "t.yaml", "u.yaml")
	if err != nil {
		t.Fatal(err)
	}
	rel := func(ps []string) []string {
		var out []string
		for _, p := range ps {
			r, _ := filepath.Rel(dir, p)
			out = append(out, filepath.ToSlash(r))
		}
		return out
	}
	if ts := rel(got["t.yaml"]); !slices.Equal(ts, []string{"a/t.yaml", "b/t.yaml"}) {
		t.Errorf("t.yaml: %v, want a/t.yaml b/t.yaml (sorted, hidden directories skipped)", ts)
	}
	if us := rel(got["u.yaml"]); !slices.Equal(us, []string{"a/u.yaml"}) {
		t.Errorf("u.yaml: %v", us)
	}
	if _, err := Under(filepath.Join(dir, "missing"), "t.yaml"); err == nil {
		t.Error("a missing directory must be an error")
	}
}

// TestIn: a directory gives its test files, a file itself.
func TestIn(t *testing.T) {
	dir := t.TempDir()
	f := filepath.Join(dir, "sub", "t.yaml")
	if err := os.MkdirAll(filepath.Dir(f), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(f, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if got, err := In(dir, "t.yaml"); err != nil || !slices.Equal(got, []string{f}) {
		t.Errorf("In(dir) = %v, %v; want [%s]", got, err, f)
	}
	if got, err := In(f, "other.yaml"); err != nil || !slices.Equal(got, []string{f}) {
		t.Errorf("In(file) = %v, %v; want the file itself", got, err)
	}
}
