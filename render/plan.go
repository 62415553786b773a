package render

import (
	"cmp"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/source"
)

// PlanOptions are the choices the caller makes for plan output.
type PlanOptions struct {
	// Color enables ANSI colour in the text format. The caller decides
	// (a terminal, and NO_COLOR unset); renderers never look at the terminal.
	Color bool
	// MaxBytes caps the markdown output (UTF-8 bytes, final newline
	// included). 0 means DefaultMaxBytes, GitHub's comment limit.
	MaxBytes int
	// SummaryHint says where the full plan is when markdown had to leave
	// parts out, e.g. "the job summary" (the default).
	SummaryHint string
	// SummaryURL, when set, makes SummaryHint a link to it (the run page,
	// where the job summary is).
	SummaryURL string
	// LimitName names the limit MaxBytes stands for in that note, e.g.
	// "the job summary's 1 MiB limit"; default "GitHub's N-character limit".
	LimitName string
	// Revision is the commit a Single apply run applied (RunApply,
	// RunApplyMarkdown: "in sync with SHA subject"), nil when not read
	// from git.
	Revision *source.Revision
}

// DefaultMaxBytes is GitHub's limit for an issue or pull-request comment.
const DefaultMaxBytes = 65536

const defaultSummaryHint = "the job summary"

type planRenderer func(w io.Writer, p *plan.Plan, opts PlanOptions) error

// planRenderers maps --output names to renderers, in the order PlanFormats lists them.
var planRenderers = formats[planRenderer]{
	{"text", planText},
	{"markdown", planMarkdown},
	{"json", planJSON},
}

// PlanFormats returns the formats Plan accepts, in a stable order.
func PlanFormats() []string { return planRenderers.names() }

// Plan writes p to w in the given format. An unknown format is an error that
// lists the valid ones, and nothing is written. Every format lists the
// changes in the same order (see sortedChanges) and none prints
// Change.Object, which holds Secret values in the clear; diffs and drift
// values are printed as the plan package masked them.
func Plan(w io.Writer, format string, p *plan.Plan, opts PlanOptions) error {
	render, err := planRenderers.find(format)
	if err != nil {
		return err
	}
	if p == nil {
		return errors.New("render: nil plan")
	}
	return render(w, p, opts)
}

// actionRank orders actions the way people read a plan: what appears, what
// changes (in place, then by replacement), what goes away, what stays. Unknown actions come last.
func actionRank(a plan.Action) int {
	switch a {
	case plan.Create:
		return 0
	case plan.Update:
		return 1
	case plan.Replace:
		return 2
	case plan.Prune:
		return 3
	case plan.Release:
		return 4
	case plan.Unchanged:
		return 5
	}
	return 6
}

// sortedChanges returns a sorted copy of the plan's changes: by action
// (create, update, replace, prune, unchanged), then by Ref.String(), then namespace.
// The sort is stable, so equal keys keep the plan's order. The plan itself
// is not modified.
func sortedChanges(p *plan.Plan) []plan.Change {
	cs := slices.Clone(p.Changes)
	slices.SortStableFunc(cs, func(a, b plan.Change) int {
		return cmp.Or(
			cmp.Compare(actionRank(a.Action), actionRank(b.Action)),
			cmp.Compare(a.Action, b.Action),
			cmp.Compare(a.Ref.String(), b.Ref.String()),
			cmp.Compare(a.Ref.Namespace, b.Ref.Namespace),
		)
	})
	return cs
}

// changeLabel names the object for people: "deployment.apps/web", with
// " in NS" when it lives in another namespace than the plan's.
func changeLabel(p *plan.Plan, r plan.Ref) string {
	s := r.String()
	if r.Namespace != "" && r.Namespace != p.Namespace {
		s += " in " + r.Namespace
	}
	return s
}

// actionSymbol is the Terraform-style sign of an action.
func actionSymbol(a plan.Action) string {
	switch a {
	case plan.Create:
		return "+"
	case plan.Update:
		return "~"
	case plan.Replace:
		return "-/+"
	case plan.Prune:
		return "-"
	case plan.Release:
		return "~"
	case plan.Unchanged:
		return " "
	}
	return "?"
}

// printable escapes control characters (all but tab) as \xNN or \uNNNN, so
// values from the cluster can neither move a terminal's cursor nor split a
// line. Callers split multi-line text into lines first.
func printable(s string) string {
	if !strings.ContainsFunc(s, isControl) {
		return s
	}
	var b strings.Builder
	for _, r := range s {
		switch {
		case !isControl(r):
			b.WriteRune(r)
		case r < 0x80:
			fmt.Fprintf(&b, `\x%02x`, r)
		default:
			fmt.Fprintf(&b, `\u%04x`, r)
		}
	}
	return b.String()
}

func isControl(r rune) bool {
	return r != '\t' && (r < 0x20 || r >= 0x7f && r < 0xa0)
}

// diffLines splits a diff into lines without the final newline; a CR
// before a newline is dropped.
func diffLines(diff string) []string {
	lines := strings.Split(strings.TrimSuffix(diff, "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimSuffix(l, "\r")
	}
	return lines
}

// thousands formats n with commas: 65536 -> "65,536".
func thousands(n int) string {
	s := fmt.Sprint(n)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	if neg {
		s = "-" + s
	}
	return s
}

// cutUTF8 cuts s to at most n bytes without splitting a character.
func cutUTF8(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
