package render

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/run"
)

// RunStatus writes what kubeplan status shows for many projects, as text
// or json.
//
// text is a table, one row per project:
//
//	PROJECT        CLUSTER  NAMESPACE  APPLYSET                          REVISION  APPLIED               RESULT   HEALTH
//	shop-web-prod  prod     shop-prod  configmap/kubeplan-shop-web-prod  3f2c1e0   2026-11-30T10:00:00Z  success  1/1 healthy
//
// then, under a header line as RunPlan's, the projects that need a look:
// the error of one whose status could not be read, and Status's view of
// one whose last run failed, whose members are not all healthy or whose
// last run found verdicts no approval covered.
//
// json is {"version": 1, "projects": [...], "total": {"projects", "failed"}},
// each project as in RunPlan's JSON with "health", Status's document
// without its version, when it was read (docs/output.md).
//
// A Single run is written as Status writes its project's ApplySet's
// status, nothing when it could not be read.
func RunStatus(w io.Writer, format string, r *run.Report) error {
	if p, ok, err := single(r); ok && (format == "text" || format == "json") {
		if err != nil || p.Health == nil {
			return err
		}
		return Status(w, format, p.Health)
	}
	switch format {
	case "text":
		return runStatusText(w, r)
	case "json":
		return runStatusJSON(w, r)
	}
	return fmt.Errorf("unknown status format %q: want text or json", format)
}

func runStatusText(w io.Writer, r *run.Report) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "PROJECT\tCLUSTER\tNAMESPACE\tAPPLYSET\tREVISION\tAPPLIED\tRESULT\tHEALTH")
	var look []run.ProjectReport
	for _, p := range r.Projects {
		rev, applied, result, health, healthy := "-", "-", string(p.Status), "-", true
		if st := p.Health; st != nil {
			rev, applied, result = orDash(shortSHA(st.Revision)), orDash(st.AppliedAt), orDash(st.Result)
			health, healthy = healthCount(st)
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", printable(runName(p)), orDash(printable(p.Cluster)), orDash(printable(p.Namespace)),
			orDash(printable(p.ApplySet)), printable(rev), printable(applied), printable(result), health)
		if p.Error != "" || p.Health != nil && (p.Health.LastError != "" || p.Health.LastFailure != nil || !healthy || len(p.Health.Pending) > 0) {
			look = append(look, p)
		}
		if p.Error == "" && p.Health != nil && p.Health.SourceFailing != nil && (look == nil || look[len(look)-1].Project.Name != p.Project.Name) {
			look = append(look, p) // its git source fails: nothing is applied
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if len(look) == 0 {
		return nil
	}
	_, err := io.WriteString(w, "\n")
	if err != nil {
		return err
	}
	return runText(w, &run.Report{Projects: look}, false, fmt.Sprintf("%d of %s need a look.", len(look), plural(len(r.Projects), "project")),
		func(b *strings.Builder, p run.ProjectReport) error {
			if p.Health != nil {
				if err := statusText(b, p.Health); err != nil {
					return err
				}
			}
			runProblemText(b, p, false)
			return nil
		})
}

// healthCount is "2/3 healthy", and whether all are.
func healthCount(st *apply.Status) (string, bool) {
	ok := 0
	for _, m := range st.Members {
		if m.Healthy() {
			ok++
		}
	}
	return fmt.Sprintf("%d/%d healthy", ok, len(st.Members)), ok == len(st.Members)
}

func orDash(s string) string {
	if s == "" {
		return "-"
	}
	return s
}

type jsonRunStatusProject struct {
	jsonRunProject
	Health *apply.Status `json:"health,omitempty"`
}

func runStatusJSON(w io.Writer, r *run.Report) error {
	t := r.Total()
	total := struct {
		Projects int `json:"projects"`
		Failed   int `json:"failed"`
	}{t.Projects, t.Failed}
	return writeRunJSON(w, r, total, func(p run.ProjectReport) jsonRunStatusProject {
		return jsonRunStatusProject{jsonRunProject: jsonProject(p), Health: p.Health}
	})
}
