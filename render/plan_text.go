package render

import (
	"fmt"
	"io"
	"strings"

	"github.com/kubeplan/kubeplan/plan"
)

// maxUnchangedLines is how many unchanged objects the text format lists one
// per line; above it, it prints only their number.
const maxUnchangedLines = 20

const (
	ansiGreen = "\x1b[32m"
	ansiDel   = "\x1b[31m"
	ansiBold  = "\x1b[1m"
)

// planText writes the plan for people at a terminal:
//
//	$ kubeplan plan
//	+ create deployment.apps/web (manifests/deployment.yaml:1:1)
//	    --- /dev/null
//	    +++ planned
//	    @@ -0,0 +1,3 @@
//	    +apiVersion: apps/v1
//
//	~ update configmap/settings (manifests/settings.yaml:1:1)
//	    ...
//
//	-/+ replace deployment.apps/api (manifests/api.yaml:1:1) (spec.selector is immutable)
//	    ...
//
//	- prune configmap/old
//
//	~ release configmap/kept (prune disabled: kept, no longer managed)
//
//	  unchanged service/web (manifests/service.yaml:1:1)
//
//	Drift (changed in the cluster, will be taken back):
//	  deployment.apps/web spec.replicas is 6, set by kubectl-scale; git says 3
//
//	Plan: 1 to add, 1 to change, 1 to prune, 1 unchanged.
//
// A replace (delete, then create again) names the immutable fields that
// force it. Diffs are indented by 4 spaces. Unchanged objects get a line each when
// there are at most maxUnchangedLines of them, else one "(N objects
// unchanged)" line. When nothing changes, "No changes. The cluster matches
// the manifests." comes before the summary, which is always the last line.
// With opts.Color, headers and diff lines are coloured (+ green, - red,
// ~ yellow, @@ cyan); removing the escape codes gives the plain output.
// Control characters in cluster data are escaped, never written.
func planText(w io.Writer, p *plan.Plan, opts PlanOptions) error {
	t := textPlan{color: opts.Color}
	var unchanged []plan.Change
	prev := plan.Action("")
	prevBody := false
	cs := sortedChanges(p)
	for _, c := range cs {
		if c.Action == plan.Unchanged {
			unchanged = append(unchanged, c)
			continue
		}
		body := c.Diff != ""
		if prevBody || body || c.Action != prev {
			t.blank()
		}
		prev, prevBody = c.Action, body
		t.header(p, c)
		if body {
			t.diff(c.Diff)
		}
	}
	if len(unchanged) > 0 {
		t.blank()
		if len(unchanged) > maxUnchangedLines {
			fmt.Fprintf(&t.b, "  (%d objects unchanged)\n", len(unchanged))
		} else {
			for _, c := range unchanged {
				t.header(p, c)
			}
		}
	}
	t.drift(p, cs)
	t.warnings(p.Warnings)
	t.blank()
	if !p.HasChanges() {
		t.b.WriteString("No changes. The cluster matches the manifests.\n")
	}
	t.b.WriteString(p.Summary().String())
	t.b.WriteByte('\n')
	_, err := io.WriteString(w, t.b.String())
	return err
}

type textPlan struct {
	b     strings.Builder
	color bool
}

// blank writes an empty line between two blocks: never first, never twice.
func (t *textPlan) blank() {
	if s := t.b.String(); s != "" && !strings.HasSuffix(s, "\n\n") {
		t.b.WriteByte('\n')
	}
}

func (t *textPlan) paint(code, s string) string {
	if !t.color {
		return s
	}
	return code + s + ansiReset
}

// header writes "~ update deployment.apps/web (file:line:col)".
func (t *textPlan) header(p *plan.Plan, c plan.Change) {
	word := actionSymbol(c.Action) + " " + printable(string(c.Action))
	switch c.Action {
	case plan.Create:
		word = t.paint(ansiGreen, word)
	case plan.Update, plan.Release:
		word = t.paint(ansiYellow, word)
	case plan.Replace, plan.Prune:
		word = t.paint(ansiDel, word)
	}
	t.b.WriteString(word + " " + printable(changeLabel(p, c.Ref)))
	if s := c.Source.String(); s != "" {
		t.b.WriteString(" (" + printable(s) + ")")
	}
	if c.Hook != "" && c.Action != plan.Unchanged {
		t.b.WriteString(" (" + printable(c.Hook) + " hook)")
	}
	if c.Reason != "" {
		t.b.WriteString(" (" + printable(c.Reason) + ")")
	}
	if c.AfterCRD {
		t.b.WriteString(" (will be created after " + printable(c.After()) + ")")
	}
	t.b.WriteByte('\n')
	if c.Owner != "" {
		t.b.WriteString("    " + t.paint(ansiDel, "! owned by "+printable(c.Owner)) + "\n")
	}
}

// diff writes the diff indented by 4 spaces, coloured line by line.
func (t *textPlan) diff(d string) {
	for _, l := range diffLines(d) {
		l = printable(l)
		switch {
		case l == "":
		case strings.HasPrefix(l, "+++ "), strings.HasPrefix(l, "--- "):
			l = t.paint(ansiBold, l)
		case strings.HasPrefix(l, "+"):
			l = t.paint(ansiGreen, l)
		case strings.HasPrefix(l, "-"):
			l = t.paint(ansiDel, l)
		case strings.HasPrefix(l, "@@"):
			l = t.paint(ansiCyan, l)
		}
		if l == "" {
			t.b.WriteByte('\n')
			continue
		}
		t.b.WriteString("    " + l + "\n")
	}
}

// drift writes one line per drifted field, in change order:
//
//	deployment.apps/web spec.replicas is 6, set by kubectl-scale; git says 3
func (t *textPlan) drift(p *plan.Plan, cs []plan.Change) {
	first := true
	for _, c := range cs {
		for _, d := range c.Drift {
			if first {
				t.blank()
				t.b.WriteString("Drift (changed in the cluster, will be taken back):\n")
				first = false
			}
			fmt.Fprintf(&t.b, "  %s %s is %s", printable(changeLabel(p, c.Ref)), printable(d.Field), printable(d.Live))
			if d.Manager != "" {
				fmt.Fprintf(&t.b, ", set by %s", printable(d.Manager))
			}
			fmt.Fprintf(&t.b, "; git says %s\n", printable(d.Want))
		}
	}
}

// warnings lists what applying will not fix, each with its position.
func (t *textPlan) warnings(ws []plan.Warning) {
	if len(ws) == 0 {
		return
	}
	t.blank()
	for _, w := range ws {
		line := t.paint(ansiYellow, "Warning:") + " " + w.Message
		if s := w.Source.String(); s != "" {
			line += " (" + s + ")"
		}
		t.b.WriteString(line + "\n")
	}
}
