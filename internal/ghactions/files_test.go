package ghactions

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

func TestWriteOutputFixedDelimiter(t *testing.T) {
	var b strings.Builder
	if err := writeOutput(&b, "plan", "line 1\nline 2", "ghadelimiter_X"); err != nil {
		t.Fatal(err)
	}
	want := "plan<<ghadelimiter_X\nline 1\nline 2\nghadelimiter_X\n"
	if b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
	for _, c := range []struct{ name, value string }{
		{"", "v"},
		{"a<<ghadelimiter_X", "v"},
		{"a", "x ghadelimiter_X y"},
		{"a\nb", "v"},
	} {
		if err := writeOutput(&b, c.name, c.value, "ghadelimiter_X"); err == nil {
			t.Errorf("writeOutput(%q, %q) succeeded, want error", c.name, c.value)
		}
	}
}

var entryRE = regexp.MustCompile(`^changes<<(ghadelimiter_[0-9a-f]{32})\n3\n(ghadelimiter_[0-9a-f]{32})\n$`)

func TestWriteOutputRandomDelimiter(t *testing.T) {
	seen := map[string]bool{}
	for range 2 {
		var b strings.Builder
		if err := WriteOutput(&b, "changes", "3"); err != nil {
			t.Fatal(err)
		}
		m := entryRE.FindStringSubmatch(b.String())
		if m == nil || m[1] != m[2] {
			t.Fatalf("bad entry %q", b.String())
		}
		if seen[m[1]] {
			t.Errorf("delimiter %s reused", m[1])
		}
		seen[m[1]] = true
	}
}

func TestSetOutputAndSummaryAppend(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "output")
	sum := filepath.Join(dir, "summary")
	if err := os.WriteFile(out, []byte("earlier=1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv(EnvOutput, out)
	t.Setenv(EnvStepSummary, sum)

	if err := SetOutput("changes", "3"); err != nil {
		t.Fatal(err)
	}
	if err := AppendStepSummary("## Plan"); err != nil {
		t.Fatal(err)
	}
	if err := AppendStepSummary("done\n"); err != nil {
		t.Fatal(err)
	}

	got, _ := os.ReadFile(out)
	rest, ok := strings.CutPrefix(string(got), "earlier=1\n")
	if !ok || !entryRE.MatchString(rest) {
		t.Errorf("output file = %q", got)
	}
	if got, _ := os.ReadFile(sum); string(got) != "## Plan\ndone\n" {
		t.Errorf("summary file = %q", got)
	}
}

func TestEnvFileUnset(t *testing.T) {
	t.Setenv(EnvOutput, "")
	t.Setenv(EnvStepSummary, "")
	if err := SetOutput("a", "b"); err == nil || !strings.Contains(err.Error(), EnvOutput) {
		t.Errorf("SetOutput without $%s: err = %v", EnvOutput, err)
	}
	if err := AppendStepSummary("x"); err == nil || !strings.Contains(err.Error(), EnvStepSummary) {
		t.Errorf("AppendStepSummary without $%s: err = %v", EnvStepSummary, err)
	}
}

func TestInActions(t *testing.T) {
	t.Setenv("GITHUB_ACTIONS", "true")
	if !InActions() {
		t.Error("InActions() = false with GITHUB_ACTIONS=true")
	}
	t.Setenv("GITHUB_ACTIONS", "")
	if InActions() {
		t.Error("InActions() = true without GITHUB_ACTIONS")
	}
}
