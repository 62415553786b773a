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

// actionDoc is the reference page of the GitHub Action: its inputs and
// outputs tables are checked against action.yml.
const actionDoc = "docs/action.md"

// documents are README.md and the pages of docs/, relative to the root.
func documents(t *testing.T) []string {
	t.Helper()
	pages, err := filepath.Glob(filepath.Join(repoRoot(t), "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	docs := []string{"README.md"}
	for _, p := range pages {
		docs = append(docs, "docs/"+filepath.Base(p))
	}
	return docs
}

// readDoc is a document's text.
func readDoc(t *testing.T, doc string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), filepath.FromSlash(doc)))
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// docSnippets returns the snippets of README.md and docs/*.md that are
// marked <!-- example: PATH --> on the line before their fence, by PATH,
// and the document showing each.
func docSnippets(t *testing.T) (snippets, shownIn map[string]string) {
	t.Helper()
	snippets, shownIn = map[string]string{}, map[string]string{}
	marker := regexp.MustCompile(`^<!-- example: (\S+) -->\n$`)
	for _, doc := range documents(t) {
		lines := strings.SplitAfter(readDoc(t, doc), "\n")
		for i := 0; i < len(lines); i++ {
			m := marker.FindStringSubmatch(lines[i])
			if m == nil {
				continue
			}
			if i+1 >= len(lines) || !strings.HasPrefix(lines[i+1], "```") {
				t.Fatalf("%s:%d: %s is not followed by a fenced block", doc, i+1, strings.TrimSpace(lines[i]))
			}
			at := i + 1
			var body strings.Builder
			for i += 2; i < len(lines) && lines[i] != "```\n"; i++ {
				body.WriteString(lines[i])
			}
			if prev, dup := shownIn[m[1]]; dup {
				t.Errorf("%s:%d: %s is shown twice (also in %s)", doc, at, m[1], prev)
			}
			snippets[m[1]] = body.String()
			shownIn[m[1]] = doc
		}
	}
	return snippets, shownIn
}

// TestReadmeSnippetsAreTheExamples keeps README.md and docs/ from drifting
// from the tested files: every example is shown once, byte for byte.
func TestReadmeSnippetsAreTheExamples(t *testing.T) {
	root := repoRoot(t)
	snippets, shownIn := docSnippets(t)
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
			t.Errorf("neither README.md nor docs/ shows %s (<!-- example: %s --> before a fenced block)", ex, ex)
		case got != string(want):
			t.Errorf("%s's snippet of %s differs from the file:\n--- %s\n%s\n--- %s\n%s", shownIn[ex], ex, shownIn[ex], got, ex, want)
		}
	}
	for p := range snippets {
		if !slices.Contains(examples, p) {
			t.Errorf("%s shows %s, which is not a file in examples/", shownIn[p], p)
		}
	}
}

// TestReadmeDocumentsTheAction: the inputs and outputs tables of
// docs/action.md list exactly what action.yml declares, with its defaults,
// and the README shows the comment image.
func TestReadmeDocumentsTheAction(t *testing.T) {
	section := readDoc(t, actionDoc)
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
			t.Errorf("%s does not document input %s", actionDoc, name)
		} else if got != def {
			t.Errorf("%s: input %s default %q, action.yml says %q", actionDoc, name, got, def)
		}
	}
	for name := range a.Outputs {
		if _, ok := documented[name]; !ok {
			t.Errorf("%s does not document output %s", actionDoc, name)
		}
	}
	for name := range documented {
		_, in := a.Inputs[name]
		_, out := a.Outputs[name]
		if !in && !out {
			t.Errorf("%s documents %s, which action.yml does not declare", actionDoc, name)
		}
	}
	if !strings.Contains(readDoc(t, "README.md"), "](docs/plan-comment.png)") {
		t.Error("README.md does not show docs/plan-comment.png")
	}
	if _, err := os.Stat(filepath.Join(repoRoot(t), "docs", "plan-comment.png")); err != nil {
		t.Error(err)
	}
}
