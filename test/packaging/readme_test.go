package packaging

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

const readmeSection = "## Use it in CI, pre-commit and on a schedule"

// readmeSnippets returns the README's section on CI, and the README's
// snippets (in any section) that are marked <!-- example: PATH --> on the
// line before their fence, by PATH.
func readmeSnippets(t *testing.T) (section string, snippets map[string]string) {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	start := strings.Index(readme, "\n"+readmeSection+"\n")
	if start < 0 {
		t.Fatalf("README.md has no section %q", readmeSection)
	}
	section = readme[start+1:]
	if end := strings.Index(section[len(readmeSection):], "\n## "); end >= 0 {
		section = section[:len(readmeSection)+end+1]
	}
	snippets = map[string]string{}
	lines := strings.SplitAfter(readme, "\n")
	marker := regexp.MustCompile(`^<!-- example: (\S+) -->\n$`)
	for i := 0; i < len(lines); i++ {
		m := marker.FindStringSubmatch(lines[i])
		if m == nil {
			continue
		}
		if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
			t.Fatalf("README.md: %s is not followed by a fenced block", strings.TrimSpace(lines[i]))
		}
		var body strings.Builder
		for i += 2; i < len(lines) && lines[i] != "```\n"; i++ {
			body.WriteString(lines[i])
		}
		if _, dup := snippets[m[1]]; dup {
			t.Errorf("README.md shows %s twice", m[1])
		}
		snippets[m[1]] = body.String()
	}
	return section, snippets
}

// TestReadmeSnippetsAreTheExamples keeps the README from drifting from the
// tested files: every example is shown in the section, byte for byte.
func TestReadmeSnippetsAreTheExamples(t *testing.T) {
	root := repoRoot(t)
	_, snippets := readmeSnippets(t)
	var examples []string
	err := filepath.WalkDir(filepath.Join(root, "examples"), func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(root, p)
			examples = append(examples, filepath.ToSlash(rel))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, ex := range examples {
		want, err := os.ReadFile(filepath.Join(root, ex))
		if err != nil {
			t.Fatal(err)
		}
		got, ok := snippets[ex]
		switch {
		case !ok:
			t.Errorf("README.md does not show %s (<!-- example: %s --> before a fenced block)", ex, ex)
		case got != string(want):
			t.Errorf("README.md's snippet of %s differs from the file:\n--- README\n%s\n--- %s\n%s", ex, got, ex, want)
		}
	}
	for p := range snippets {
		if !slices.Contains(examples, p) {
			t.Errorf("README.md shows %s, which is not a file in examples/", p)
		}
	}
}

// TestReadmeDocumentsTheAction: the inputs and outputs tables list exactly
// what action.yml declares, with its defaults, and the comment image is there.
func TestReadmeDocumentsTheAction(t *testing.T) {
	section, _ := readmeSnippets(t)
	a := readAction(t, filepath.Join(repoRoot(t), "action.yml"))
	row := regexp.MustCompile("(?m)^\\| `([a-z-]+)` \\|([^|]*)\\|")
	documented := map[string]string{}
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		documented[m[1]] = strings.TrimSpace(m[2])
	}
	for name, in := range a.Inputs {
		def := ""
		if in.Default != nil && *in.Default != "" {
			def = "`" + *in.Default + "`"
		}
		if got, ok := documented[name]; !ok {
			t.Errorf("README.md does not document input %s", name)
		} else if got != def {
			t.Errorf("README.md: input %s default %q, action.yml says %q", name, got, def)
		}
	}
	for name := range a.Outputs {
		if _, ok := documented[name]; !ok {
			t.Errorf("README.md does not document output %s", name)
		}
	}
	for name := range documented {
		_, in := a.Inputs[name]
		_, out := a.Outputs[name]
		if !in && !out {
			t.Errorf("README.md documents %s, which action.yml does not declare", name)
		}
	}
	if !strings.Contains(section, "](docs/plan-comment.png)") {
		t.Error("README.md does not show docs/plan-comment.png")
	}
	if _, err := os.Stat(filepath.Join(repoRoot(t), "docs", "plan-comment.png")); err != nil {
		t.Error(err)
	}
}
