package healthexpr

import (
	"os"
	"strings"
	"testing"
)

// docs/health.md shows the built-in rules word for word: its YAML block
// under "## Built-in rules" is BuiltinYAML.
func TestDocsShowBuiltins(t *testing.T) {
	data, err := os.ReadFile("../../docs/health.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(data), "## Built-in rules")
	if !ok {
		t.Fatal("no section Built-in rules")
	}
	_, block, _ := strings.Cut(section, "```yaml\n")
	block, _, _ = strings.Cut(block, "```")
	if block != BuiltinYAML {
		t.Errorf("docs/health.md shows\n%s\nthe built-in rules are\n%s", block, BuiltinYAML)
	}
	rules, err := ParseBuiltins(block)
	if err != nil || len(rules) != len(BuiltinRules()) {
		t.Fatalf("docs show %d rules (%v), there are %d", len(rules), err, len(BuiltinRules()))
	}
}
