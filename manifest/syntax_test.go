package manifest

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// syntaxCorpus is testdata/syntax: one realistic Deployment per mistake,
// with the place a person fixing it would point at.
var syntaxCorpus = []struct {
	file      string
	line, col int
	mistake   string
}{
	{"dedent-env-value", 49, 13, "an env value dedented to the list item column"},
	{"overindent-probe", 55, 13, "readinessProbe indented two spaces too far"},
	{"overindent-key", 38, 13, "a container key indented two spaces too far"},
	{"overindent-one", 44, 16, "a port key indented one space too far"},
	{"underindent-label", 9, 4, "a label indented one space less than its siblings"},
	{"overindent-top", 13, 2, "a top-level key indented one space"},
	{"dedent-resources", 60, 9, "resources dedented to the containers list column"},
	{"dedent-list-item", 43, 11, "a ports item dedented to the ports key column"},
	{"overindent-list-item", 48, 15, "an env item indented two spaces further than the first"},
	{"dash-in-mapping", 55, 11, "a list dash before a key of the container mapping"},
	{"between-indent", 37, 10, "a container key indented one space less than its siblings"},
	{"tab-indent", 42, 1, "a tab in the indentation of a key"},
	{"tab-mid-indent", 59, 9, "a tab after spaces in the indentation"},
	{"unclosed-double-quote", 47, 22, "an env value whose double quote is not closed"},
	{"unclosed-single-quote", 10, 32, "a label value whose single quote is not closed"},
	{"apostrophe-in-single-quote", 49, 26, "an apostrophe ends a single-quoted value early"},
	{"text-after-quote", 47, 51, "text after the closing quote of a value"},
	{"missing-colon", 38, 11, "a key without its colon"},
	{"missing-space-after-colon", 42, 15, "no space after the colon of a key"},
	{"missing-space-after-dash", 43, 13, "no space after a list dash"},
	{"colon-in-value", 12, 39, "an unquoted value containing \": \""},
	{"colon-in-image", 37, 53, "an image reference with a space after its colon"},
	{"unclosed-flow-sequence", 39, 17, "a flow list without its closing bracket"},
	{"unclosed-flow-mapping", 17, 18, "a flow mapping without its closing brace"},
	{"extra-bracket", 39, 54, "a flow list with an extra closing bracket"},
	{"flow-missing-comma", 39, 35, "a flow list missing a comma between quoted items"},
	{"at-sign", 37, 18, "a value starting with \"@\""},
	{"backtick", 49, 22, "a value starting with a backtick"},
	{"undefined-alias", 65, 23, "an alias to an anchor that is not defined"},
	{"block-scalar-indent", 42, 15, "a literal block whose first line is more indented than the rest"},
	{"key-after-block-scalar", 14, 6, "a key dedented into a literal block scalar"},
	{"mapping-key-in-list", 65, 9, "a key at a list item column after the list"},
}

func TestSyntaxErrorPositions(t *testing.T) {
	listed := map[string]bool{}
	for _, c := range syntaxCorpus {
		listed[c.file+".yaml"] = true
		t.Run(c.file, func(t *testing.T) {
			data, err := os.ReadFile(filepath.Join("..", "testdata", "syntax", c.file+".yaml"))
			if err != nil {
				t.Fatal(err)
			}
			objs, probs := Parse(c.file+".yaml", data)
			if len(objs) != 0 || len(probs) != 1 {
				t.Fatalf("got %d objects and problems %v, want one problem (%s)", len(objs), probs, c.mistake)
			}
			p := probs[0]
			if p.Rule != "invalid-yaml" || p.Line != c.line || p.Col != c.col {
				t.Errorf("%s: got %d:%d [%s] %s\nwant %d:%d (%s)", c.file, p.Line, p.Col, p.Rule, p.Message, c.line, c.col, c.mistake)
			}
			if !strings.Contains(p.Message, "; ") {
				t.Errorf("%s: message %q gives no advice", c.file, p.Message)
			}
		})
	}
	entries, err := os.ReadDir(filepath.Join("..", "testdata", "syntax"))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		if strings.HasSuffix(e.Name(), ".yaml") && !listed[e.Name()] {
			t.Errorf("testdata/syntax/%s is not in syntaxCorpus", e.Name())
		}
	}
}

// TestSyntaxErrorsInLaterDocument checks that positions found by parsing
// prefixes are file positions when the broken document is not the first.
func TestSyntaxErrorsInLaterDocument(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "syntax", "dedent-env-value.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	head := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: first\n---\n"
	_, probs := Parse("two.yaml", append([]byte(head), data...))
	if len(probs) != 1 || probs[0].Line != 49+5 || probs[0].Col != 13 {
		t.Fatalf("got %v, want one problem at 54:13", probs)
	}
}

var docRow = regexp.MustCompile("^\\| `([a-z0-9-]+)\\.yaml` \\| [^|]+ \\| (\\d+):(\\d+) \\|")

// TestSyntaxErrorsDoc holds docs/syntax-errors.md to what Parse reports:
// every corpus file has a row, and its kubeplan column is the position
// Parse gives.
func TestSyntaxErrorsDoc(t *testing.T) {
	doc, err := os.ReadFile(filepath.Join("..", "docs", "syntax-errors.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	for _, l := range bytes.Split(doc, []byte("\n")) {
		if m := docRow.FindSubmatch(l); m != nil {
			rows[string(m[1])] = string(m[2]) + ":" + string(m[3])
		}
	}
	for _, c := range syntaxCorpus {
		want := strconv.Itoa(c.line) + ":" + strconv.Itoa(c.col)
		if got, ok := rows[c.file]; !ok || got != want {
			t.Errorf("docs/syntax-errors.md row for %s says %q, Parse reports %s", c.file, got, want)
		}
	}
}

// TestSyntaxPosBudget checks the prefix search gives up within its budget
// on a large document whose mistake is far below the line yaml.v3 names,
// and that the error is still reported, at yaml.v3's line.
func TestSyntaxPosBudget(t *testing.T) {
	var b strings.Builder
	b.WriteString("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: big\ndata:\n")
	for i := range 30000 {
		b.WriteString("  key" + strconv.Itoa(i) + ": value\n")
	}
	b.WriteString(" misplaced: x\n")
	data := []byte(b.String())
	d := newDocText(data)
	if _, ok := d.blockError(1); ok {
		t.Error("blockError found the mistake past its budget")
	}
	if d.parses > maxPrefixParses || d.parsed > maxPrefixBytes {
		t.Errorf("parsed %d prefixes, %d bytes; the budget is %d and %d", d.parses, d.parsed, maxPrefixParses, maxPrefixBytes)
	}
	_, probs := Parse("big.yaml", data)
	if len(probs) != 1 || probs[0].Rule != "invalid-yaml" {
		t.Fatalf("got %v, want one invalid-yaml problem", probs)
	}
}
