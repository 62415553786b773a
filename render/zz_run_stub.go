package render

// TEMPORARY stub until the run views land (deleted at merge).

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/kubeplan/kubeplan/run"
)

type RunOptions struct {
	Color      bool
	MaxBytes   int
	SummaryURL string
}

func RunPlanFormats() []string { return []string{"text", "markdown", "json"} }

func RunPlan(w io.Writer, format string, r *run.Report, o RunOptions) error {
	if format == "json" {
		return json.NewEncoder(w).Encode(r)
	}
	for _, p := range r.Projects {
		fmt.Fprintf(w, "── %s · cluster %s · namespace %s · %s\n", p.Project.Name, p.Cluster, p.Namespace, p.ApplySet)
		if p.Plan != nil {
			_ = Plan(w, "text", p.Plan, PlanOptions{})
		}
		if p.Error != "" {
			fmt.Fprintln(w, p.Error)
		}
		fmt.Fprintln(w)
	}
	t := r.Total()
	fmt.Fprintf(w, "Total: %d projects, %d with changes, %d failed, %d skipped\n", t.Projects, t.WithChanges, t.Failed, t.Skipped)
	return nil
}

func RunApply(w io.Writer, format string, r *run.Report, o RunOptions) error {
	for _, p := range r.Projects {
		fmt.Fprintf(w, "── %s · %s\n", p.Project.Name, p.Status)
		if p.Result != nil {
			_ = Apply(w, "text", ApplyReport{Result: p.Result, Err: p.Error})
		} else if p.Error != "" {
			fmt.Fprintln(w, p.Error)
		}
	}
	return nil
}

func RunStatus(w io.Writer, format string, r *run.Report) error {
	for _, p := range r.Projects {
		fmt.Fprintf(w, "── %s · %s %s\n", p.Project.Name, p.Status, p.Error)
	}
	return nil
}
