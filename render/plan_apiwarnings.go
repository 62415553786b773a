package render

import (
	"fmt"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/plan"
)

// mdAPIWarningTable has one row per warning the API server returned with
// an object's dry-run (plan.Change.APIWarnings), unchanged objects
// included: a deprecated API or a Pod Security warn level is as true of
// an object the apply leaves alone. The warning is cluster text, escaped
// like every cell.
func mdAPIWarningTable(p *plan.Plan, cs []plan.Change) *mdSection {
	s := &mdSection{one: "warning row", many: "warning rows", tail: true,
		intro: "\n#### API server warnings\n\nThe API server accepted these objects with a warning.\n\n" +
			"| object | warning |\n|---|---|\n"}
	for _, c := range cs {
		for _, w := range c.APIWarnings {
			s.rows = append(s.rows, fmt.Sprintf("| %s | %s |\n", mdObject(p, c.Ref, true), mdText(w)))
		}
	}
	return s
}

// apiWarningAnnotations are a `::warning` per warning the API server
// returned with an object's dry-run, on the line where the object is
// defined, titled "API server warning".
func apiWarningAnnotations(p *plan.Plan) []ghactions.Annotation {
	var out []ghactions.Annotation
	for _, c := range sortedChanges(p) {
		for _, w := range c.APIWarnings {
			out = append(out, ghactions.Annotation{Level: ghactions.LevelWarning, File: c.Source.File, Line: c.Source.Line,
				Title: "API server warning", Message: changeLabel(p, c.Ref) + ": " + printable(w) + annotationStage(c)})
		}
	}
	return out
}
