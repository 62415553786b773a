package render

import (
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"
	"time"

	"k8s.io/apimachinery/pkg/util/duration"

	"github.com/kubeplan/kubeplan/orphans"
	"github.com/kubeplan/kubeplan/run"
)

// Orphans writes what kubeplan orphans found, as text or json; now is
// the time ages are counted to.
//
// text is a table, one row per object nobody manages (with a PROJECT
// column when the run is over projects):
//
//	NAMESPACE  OBJECT               AGE  LAST MANAGER
//	shop       configmap/hotfix     3d   kubectl-create
//	shop       deployment.apps/dbg  2h   kubectl-create
//
// then a summary line, the types that were not checked (per namespace
// and reason) and the error of each project that could not be read.
//
// json is OrphansJSON's document (docs/orphans.md).
func Orphans(w io.Writer, format string, r *run.OrphansReport, now time.Time) error {
	switch format {
	case "text":
		return orphansText(w, r, now)
	case "json":
		return orphansJSON(w, r)
	}
	return fmt.Errorf("unknown orphans format %q: want text or json", format)
}

func orphansText(w io.Writer, r *run.OrphansReport, now time.Time) error {
	many := !r.Single
	var namespaces []string
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 4, 2, ' ', 0)
	if r.Count() > 0 {
		if many {
			fmt.Fprint(tw, "PROJECT\t")
		}
		fmt.Fprintln(tw, "NAMESPACE\tOBJECT\tAGE\tLAST MANAGER")
	}
	for i, f := range r.Found {
		if f == nil {
			continue
		}
		namespaces = append(namespaces, f.Namespaces...)
		for _, o := range f.Objects {
			if many {
				fmt.Fprintf(tw, "%s\t", printable(runName(r.Projects[i])))
			}
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", printable(o.Namespace), printable(o.Ref()), ageOf(now, o.Created), orDash(printable(o.LastManager)))
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if b.Len() > 0 {
		b.WriteString("\n")
	}
	b.WriteString(orphansSummary(r, namespaces) + "\n")
	for i, f := range r.Found {
		if f != nil {
			notCheckedText(&b, f.NotChecked, many, runName(r.Projects[i]))
		}
	}
	for _, p := range r.Projects {
		if p.Error != "" {
			if many {
				fmt.Fprintf(&b, "%s: ", printable(runName(p)))
			}
			msg := p.Error // a skipped project's error says so itself
			if p.Status == run.Failed {
				msg = "failed: " + msg
			}
			fmt.Fprintln(&b, printable(msg))
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// orphansSummary is the line under the table.
func orphansSummary(r *run.OrphansReport, namespaces []string) string {
	where := "namespace"
	if len(namespaces) != 1 {
		where += "s"
	}
	where += " " + strings.Join(namespaces, ", ")
	if len(namespaces) == 0 {
		where = "no namespace"
	}
	n := r.Count()
	if n == 0 {
		return "No unmanaged objects in " + where + "."
	}
	return fmt.Sprintf("%s nobody manages in %s.", plural(n, "object"), where)
}

// notCheckedText says which types were not read, one line per namespace
// and reason.
func notCheckedText(b *strings.Builder, ncs []orphans.NotChecked, many bool, project string) {
	type key struct{ ns, reason string }
	groups := map[key][]string{}
	var keys []key
	for _, n := range ncs {
		k := key{n.Namespace, n.Reason}
		if groups[k] == nil {
			keys = append(keys, k)
		}
		groups[k] = append(groups[k], n.Type())
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i].ns+"\x00"+keys[i].reason < keys[j].ns+"\x00"+keys[j].reason })
	for _, k := range keys {
		if many {
			fmt.Fprintf(b, "%s: ", printable(project))
		}
		where := ""
		if k.ns != "" {
			where = " in " + k.ns
		}
		fmt.Fprintf(b, "Not checked%s (%s): %s\n", printable(where), printable(k.reason), printable(strings.Join(groups[k], ", ")))
	}
}

// ageOf is how long ago t was, as kubectl shows it (3d, 2h5m).
func ageOf(now, t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return duration.HumanDuration(now.Sub(t))
}
