package render

import (
	"io"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/run"
)

// runPlanJSON writes the plans of a run as one JSON document (two-space
// indent, final newline), the documented shape of `kubeplan plan --output
// json` over several projects (docs/plan-output.md):
//
//	{
//	  "version": 1,                     // run.FormatVersion
//	  "projects": [                     // always an array, in the report's order
//	    {
//	      "name": "shop-web-prod",
//	      "path": "shop/web/prod",
//	      "cluster": "prod",            // the kubeconfig context
//	      "namespace": "shop-prod",
//	      "applyset": "configmap/kubeplan-shop-web-prod", // "" for none
//	      "status": "changes",          // "no-changes", "changes", "failed" or "skipped"
//	      "error": "...",               // optional, why it failed or was skipped
//	      "findings": [...],            // optional, lint's findings as in lint's JSON
//	      "revision": "3f2c1e0",        // optional, the source revision
//	      "summary": {"add": 1, ...},   // with a plan: as the single plan's "summary"
//	      "stages": [...],              // with a plan that has stages: as the single plan's "stages"
//	      "changes": [...],             // with a plan: as the single plan's "changes"
//	      "guards": [...],              // optional: as the single plan's "guards"
//	      "window": {...}               // optional: as the single plan's "window"
//	    }
//	  ],
//	  "total": {"projects": 3, "withChanges": 1, "failed": 1, "skipped": 1,
//	            "add": 1, "change": 1, "replace": 0, "prune": 1, "unchanged": 3, "drifted": 1}
//	}
//
// A project without a plan (failed before it, or skipped) has neither
// summary nor changes. Readers must ignore fields they do not know.
func runPlanJSON(w io.Writer, r *run.Report, _ RunOptions) error {
	return writeRunJSON(w, r, r.Total(), func(p run.ProjectReport) jsonRunPlanProject {
		jp := jsonRunPlanProject{jsonRunProject: jsonProject(p)}
		if p.Plan != nil {
			s := jsonSummaryOf(p.Plan.Summary())
			jp.Revision, jp.Summary, jp.Stages, jp.Changes = p.Plan.Revision, &s, jsonStages(p.Plan), jsonChanges(p.Plan)
			jp.Guards, jp.Window = p.Plan.Guards, p.Plan.Window
		}
		return jp
	})
}

// writeRunJSON writes the document every run JSON is:
// {"version": run.FormatVersion, "projects": [project(p)...], "total": total}.
func writeRunJSON[P any](w io.Writer, r *run.Report, total any, project func(run.ProjectReport) P) error {
	doc := struct {
		Version  int `json:"version"`
		Projects []P `json:"projects"`
		Total    any `json:"total"`
	}{Version: run.FormatVersion, Projects: make([]P, 0, len(r.Projects)), Total: total}
	for _, p := range r.Projects {
		doc.Projects = append(doc.Projects, project(p))
	}
	return writeJSONRaw(w, doc)
}

// jsonRunProject is what every run JSON says of a project.
type jsonRunProject struct {
	Name      string         `json:"name"`
	Path      string         `json:"path"`
	Cluster   string         `json:"cluster"`
	Namespace string         `json:"namespace"`
	ApplySet  string         `json:"applyset"`
	Status    run.Status     `json:"status"`
	Error     string         `json:"error,omitempty"`
	Findings  []lint.Finding `json:"findings,omitempty"`
	// Suspended is the set's suspension (kubeplan suspend), when it has one.
	Suspended *plan.Suspension `json:"suspended,omitempty"`
}

func jsonProject(p run.ProjectReport) jsonRunProject {
	return jsonRunProject{Name: p.Project.Name, Path: p.Project.Path, Cluster: p.Cluster, Namespace: p.Namespace,
		ApplySet: p.ApplySet, Status: p.Status, Error: p.Error, Findings: p.Findings, Suspended: suspensionOf(p)}
}

type jsonRunPlanProject struct {
	jsonRunProject
	Revision string             `json:"revision,omitempty"`
	Summary  *jsonPlanSummary   `json:"summary,omitempty"`
	Stages   []jsonStage        `json:"stages,omitempty"`
	Changes  []jsonChange       `json:"changes,omitempty"`
	Guards   []guard.Verdict    `json:"guards,omitempty"`
	Window   *guard.WindowState `json:"window,omitempty"`
}
