package render

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kubeplan/kubeplan/apply"
)

// StatusVersion is the version of status's -o json document; see
// docs/output.md.
const StatusVersion = 1

// Status writes what kubeplan status shows, as text or json.
func Status(w io.Writer, format string, st *apply.Status) error {
	switch format {
	case "json":
		return writeJSON(w, struct {
			Version int `json:"version"`
			*apply.Status
		}{StatusVersion, st})
	case "text":
		return statusText(w, st)
	}
	return fmt.Errorf("unknown status format %q: want text or json", format)
}

func statusText(w io.Writer, st *apply.Status) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintf(tw, "ApplySet:\t%s in namespace %s (%s)\n", st.ApplySet, st.Namespace, st.Tooling)
	fmt.Fprintf(tw, "Revision:\t%s\n", orNone(st.Revision))
	fmt.Fprintf(tw, "Applied:\t%s\n", orNone(st.AppliedAt))
	fmt.Fprintf(tw, "Checked:\t%s\n", orNone(st.CheckedAt))
	fmt.Fprintf(tw, "Result:\t%s\n", orNone(st.Result))
	if st.LastError != "" {
		lines := strings.Split(strings.TrimRight(st.LastError, "\n"), "\n")
		for i := range lines {
			lines[i] = printable(lines[i])
		}
		fmt.Fprintf(tw, "Error:\t%s\n", strings.Join(lines, "\n\t"))
	}
	fmt.Fprintf(tw, "Members:\t%d\n", len(st.Members))
	if err := tw.Flush(); err != nil {
		return err
	}
	tw = tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, m := range st.Members {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", m.Ref, m.Status, m.Message)
	}
	if st.SecretsSkipped {
		fmt.Fprintln(tw, "  (Secret members are not listed: status never reads Secrets)")
	}
	return tw.Flush()
}

func orNone(s string) string {
	if s == "" {
		return "(none recorded)"
	}
	return s
}
