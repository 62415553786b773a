package render

import (
	"fmt"
	"io"
	"text/tabwriter"

	"github.com/kubeplan/kubeplan/lint"
)

// Rules writes the list of lint rules (kubeplan lint --list-rules) as text
// or json.
func Rules(w io.Writer, format string, rules []lint.RuleInfo) error {
	if format == "json" {
		return writeJSON(w, rules)
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "RULE\tSEVERITY\tKIND\tDESCRIPTION")
	for _, r := range rules {
		k := "check"
		if r.Policy {
			k = "policy"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", r.ID, r.Severity, k, r.Description)
	}
	return tw.Flush()
}
