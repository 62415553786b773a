package guard

import (
	"os"
	"strings"
	"testing"
)

// docs/guards.md shows the built-in rules as they are: its YAML block
// under "## Built-in rules" reads back as the same rules.
func TestDocsShowBuiltins(t *testing.T) {
	data, err := os.ReadFile("../../docs/guards.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "## Built-in rules")
	if !ok {
		t.Fatal("no section Built-in rules")
	}
	_, block, _ := strings.Cut(section, "```yaml\n")
	block, _, _ = strings.Cut(block, "```")
	rules, err := ParseRules("docs/guards.md", []byte(block))
	if err != nil {
		t.Fatal(err)
	}
	if len(rules) != len(builtins) {
		t.Fatalf("docs show %d built-ins, there are %d", len(rules), len(builtins))
	}
	flat := func(s string) string { return strings.Join(strings.Fields(s), " ") }
	for i, b := range builtins {
		d := rules[i]
		if d.Name != b.Name || d.Scope != b.Scope || d.Outcome != b.Outcome ||
			flat(d.Expression) != flat(b.Expression) || flat(d.MessageExpression) != flat(b.MessageExpression) {
			t.Errorf("docs show\n%+v\nthe built-in is\n%+v", d, b)
		}
	}
}
