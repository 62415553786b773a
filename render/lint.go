package render

import (
	"fmt"
	"io"
	"sort"

	"github.com/kubeplan/kubeplan/lint"
)

// LintOptions are the choices the caller makes for lint output.
type LintOptions struct {
	// Color enables ANSI colour in the text format. The caller decides
	// (a terminal, and NO_COLOR unset); renderers never look at the terminal.
	Color bool
	// ToolVersion is kubeplan's version ("0.1.0"), written by sarif.
	ToolVersion string
	// Rules describes the rules that can produce findings; sarif lists them
	// in tool.driver.rules. Rules seen only in findings are listed too.
	Rules []lint.RuleInfo
	// MaxPerRule is how many findings of one rule the text format lists;
	// it counts the rest in one line. 0 means DefaultMaxPerRule, a
	// negative value no limit. The other formats list every finding.
	MaxPerRule int
}

// DefaultMaxPerRule is the text format's limit of findings per rule.
const DefaultMaxPerRule = 100

type lintRenderer func(w io.Writer, rep lint.Report, opts LintOptions) error

// lintRenderers maps --output names to renderers, in the order LintFormats lists them.
var lintRenderers = formats[lintRenderer]{
	{"text", lintText},
	{"json", lintJSON},
	{"sarif", lintSARIF},
	{"junit", lintJUnit},
	{"github", lintGitHub},
}

// LintFormats returns the formats Lint accepts, in a stable order.
func LintFormats() []string { return lintRenderers.names() }

// Lint writes rep to w in the given format. An unknown format is an error
// that lists the valid ones.
func Lint(w io.Writer, format string, rep lint.Report, opts LintOptions) error {
	render, err := lintRenderers.find(format)
	if err != nil {
		return err
	}
	return render(w, rep, opts)
}

// objectLabel names the object a finding is about for people:
// "deployment.apps/web in prod", "deployment.apps/web", or "" for a file.
func objectLabel(f lint.Finding) string {
	if f.Object == "" {
		return ""
	}
	if f.Namespace == "" {
		return f.Object
	}
	return f.Object + " in " + f.Namespace
}

// atLeast1 clamps a 1-based position: zero (unknown) becomes 1.
func atLeast1(n int) int {
	if n < 1 {
		return 1
	}
	return n
}

// position is "path:line:col" with unknown positions shown as 1.
func position(f lint.Finding) string {
	return fmt.Sprintf("%s:%d:%d", f.File, atLeast1(f.Line), atLeast1(f.Col))
}

// ruleOverflow is how many findings of one rule a capped list left out.
type ruleOverflow struct {
	rule string
	n    int
}

// capPerRule keeps, in order, the first max findings of each rule and
// counts the others by rule (sorted by rule). max <= 0 keeps all.
func capPerRule(fs []lint.Finding, max int) ([]lint.Finding, []ruleOverflow) {
	if max <= 0 {
		return fs, nil
	}
	seen := map[string]int{}
	var kept []lint.Finding
	for _, f := range fs {
		seen[f.Rule]++
		if seen[f.Rule] <= max {
			kept = append(kept, f)
		}
	}
	var over []ruleOverflow
	for r, n := range seen {
		if n > max {
			over = append(over, ruleOverflow{r, n - max})
		}
	}
	sort.Slice(over, func(i, j int) bool { return over[i].rule < over[j].rule })
	return kept, over
}

// maxPerRule is opts.MaxPerRule with 0 read as the default.
func (opts LintOptions) maxPerRule() int {
	if opts.MaxPerRule == 0 {
		return DefaultMaxPerRule
	}
	return opts.MaxPerRule
}
