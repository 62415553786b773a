package render

import (
	"fmt"
	"io"
	"math"
	"strings"
)

// ApplyReport is what an apply did, as plain data for ApplyMarkdown.
type ApplyReport struct {
	Namespace string
	ApplySet  string // "configmap/gitops-applyset", "" for none
	// Objects are the objects in the order apply reported them; Outcome is
	// "created", "configured", "pruned" or "unchanged".
	Objects []ApplyObject
	// Revision and Subject name the git commit applied, when known.
	Revision, Subject string
	// Err is why the apply failed, "" when it did not.
	Err string
}

// ApplyObject is one object's outcome.
type ApplyObject struct {
	Object  string // "deployment.apps/web"
	Outcome string
}

// ApplySummary is the last line of kubeplan apply:
// "Apply: 1 created, 1 configured, 0 pruned, 3 unchanged.", naming
// replaced objects only when there are some ("..., 1 replaced, 0 pruned, ...").
func ApplySummary(objs []ApplyObject) string {
	n := map[string]int{}
	for _, o := range objs {
		n[o.Outcome]++
	}
	replaced := ""
	if n["replaced"] > 0 {
		replaced = fmt.Sprintf("%d replaced, ", n["replaced"])
	}
	return fmt.Sprintf("Apply: %d created, %d configured, %s%d pruned, %d unchanged.", n["created"], n["configured"], replaced, n["pruned"], n["unchanged"])
}

// ApplyMarkdown writes the apply as a GitHub job summary:
//
//	### kubeplan apply: namespace `store`, ApplySet `configmap/gitops-applyset`
//
//	**Apply: 1 created, 1 configured, 1 pruned, 3 unchanged.**
//
//	In sync with `3f2c1e0` fix the price.
//
//	| object | result |
//	|---|---|
//	| `deployment.apps/web` | 🔄 configured |
//
//	<details><summary>3 unchanged</summary> ... </details>
//
// A failed apply says so under the summary line. The output never exceeds
// maxBytes (0: no limit): rows are cut from the end, unchanged ones first,
// and a line says how many were left out.
func ApplyMarkdown(w io.Writer, r ApplyReport, maxBytes int) error {
	var head strings.Builder
	head.WriteString("### kubeplan apply")
	var scope []string
	if r.Namespace != "" {
		scope = append(scope, "namespace "+mdCode(r.Namespace, false))
	}
	if r.ApplySet != "" {
		scope = append(scope, "ApplySet "+mdCode(r.ApplySet, false))
	}
	if len(scope) > 0 {
		head.WriteString(": " + strings.Join(scope, ", "))
	}
	head.WriteString("\n\n**" + ApplySummary(r.Objects) + "**\n")
	if r.Err != "" {
		head.WriteString("\n> [!CAUTION]\n> The apply failed: " + strings.Join(mdLines(r.Err), "<br>") + "\n")
	} else if r.Revision != "" {
		head.WriteString("\nIn sync with " + mdCode(r.Revision, false) + " " + mdText(r.Subject) + "\n")
	}
	changed := &mdSection{one: "row", many: "rows", tail: true, intro: "\n| object | result |\n|---|---|\n"}
	same := &mdSection{one: "unchanged object", many: "unchanged objects", tail: true}
	for _, o := range r.Objects {
		if o.Outcome == "unchanged" {
			same.rows = append(same.rows, "- "+mdCode(o.Object, false)+"\n")
			continue
		}
		changed.rows = append(changed.rows, fmt.Sprintf("| %s | %s |\n", mdCode(o.Object, true), applyOutcome(o.Outcome)))
	}
	if len(same.rows) > 0 {
		same.intro = fmt.Sprintf("\n<details><summary>%s unchanged</summary>\n\n", thousands(len(same.rows)))
		same.outro = "\n</details>\n"
	}
	if maxBytes <= 0 {
		maxBytes = math.MaxInt
	}
	out := mdFit(head.String(), []*mdSection{changed, same}, maxBytes, mdNoteText{why: "the job summary's 1 MiB limit", what: "list", where: "the job log"})
	_, err := io.WriteString(w, out)
	return err
}

func applyOutcome(o string) string {
	switch o {
	case "created":
		return "➕ created"
	case "configured":
		return "🔄 configured"
	case "replaced":
		return "♻️ replaced"
	case "pruned":
		return "🗑️ pruned"
	}
	return mdText(o)
}
