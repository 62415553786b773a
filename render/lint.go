package render

import (
	"fmt"
	"io"

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
}

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
