package render

import (
	"io"

	"github.com/kubeplan/kubeplan/plan"
)

// PlanJSONVersion is the version of the plan JSON document. It changes only
// when a field is removed or changes meaning; new fields may appear at any
// time and readers must ignore fields they do not know. It is not the saved
// plan format (plan.FormatVersion), which also holds the objects.
const PlanJSONVersion = 1

// planJSON writes the plan as one JSON document (two-space indent, final
// newline). This is the documented, stable shape of
// `kubeplan plan --output json` (docs/plan-output.md):
//
//	{
//	  "version": 1,
//	  "summary": {"add": 1, "change": 2, "replace": 0, "prune": 1, "unchanged": 5, "drifted": 1}, // "release": N when some
//	  "namespace": "store",
//	  "revision": "3f2c1e0",            // optional, the source revision
//	  "applyset": {                     // optional, the ApplySet parent
//	    "ref": {"version": "v1", "kind": "ConfigMap", "resource": "configmaps", "namespace": "store", "name": "gitops-applyset"},
//	    "id": "applyset-...-v1",
//	    "exists": true,
//	    "resourceVersion": "4711"       // optional
//	  },
//	  "changes": [                      // always an array; sorted by action
//	    {                               // (create, update, replace, prune, unchanged), then object
//	      "ref": {"group": "apps", "version": "v1", "kind": "Deployment", "resource": "deployments", "namespace": "store", "name": "web"},
//	      "action": "update",           // "create", "update", "replace", "prune", "release" or "unchanged"
//	      "reason": "spec.selector is immutable", // optional, why a replace deletes and recreates
//	      "source": {"file": "manifests/deployment.yaml", "line": 1, "column": 1},  // optional
//	      "diff": "--- live\n+++ planned\n...", // optional, unified diff, Secret values masked
//	      "drift": [{"field": "spec.replicas", "live": "6", "want": "3", "manager": "kubectl-scale"}], // optional
//	      "afterCRD": true,             // optional, created after what it needs, not dry-run:
//	      "waitsFor": "Namespace team-a", // with afterCRD: "its CustomResourceDefinition", a Namespace or both
//	      "owner": "Helm release shop in store" // optional, who else owns the object an update takes over
//	    }
//	  ],
//	  "warnings": [                     // optional: what applying will not fix
//	    {"ref": {...}, "source": {"file": "manifests/deployment.yaml", "line": 31, "column": 19},
//	     "message": "pods of deployment.apps/web will not start: secret \"db-credentials\" not found"}
//	  ]
//	}
//
// The objects themselves (Change.Object, with Secret values in the clear)
// and the live resourceVersions belong to saved plans and are never written.
func planJSON(w io.Writer, p *plan.Plan, _ PlanOptions) error {
	doc := jsonPlanDoc{
		Version:   PlanJSONVersion,
		Summary:   jsonSummaryOf(p.Summary()),
		Namespace: p.Namespace,
		Revision:  p.Revision,
		ApplySet:  p.Parent,
		Changes:   jsonChanges(p),
		Warnings:  p.Warnings,
	}
	return writeJSONRaw(w, doc)
}

// jsonSummaryOf is the "summary" object of the plan JSON.
func jsonSummaryOf(s plan.Summary) jsonPlanSummary {
	return jsonPlanSummary{Add: s.Add, Change: s.Change, Replace: s.Replace, Prune: s.Prune, Release: s.Release,
		Unchanged: s.Unchanged, Drifted: s.Drifted}
}

// jsonChanges is the "changes" array of the plan JSON, never nil.
func jsonChanges(p *plan.Plan) []jsonChange {
	out := []jsonChange{}
	for _, c := range sortedChanges(p) {
		jc := jsonChange{Ref: c.Ref, Action: c.Action, Reason: c.Reason, Diff: c.Diff, Drift: c.Drift, AfterCRD: c.AfterCRD, WaitsFor: c.WaitsFor, Owner: c.Owner, Hook: c.Hook}
		if c.Source != (plan.Source{}) {
			src := c.Source
			jc.Source = &src
		}
		out = append(out, jc)
	}
	return out
}

type jsonPlanDoc struct {
	Version   int             `json:"version"`
	Summary   jsonPlanSummary `json:"summary"`
	Namespace string          `json:"namespace"`
	Revision  string          `json:"revision,omitempty"`
	ApplySet  *plan.Parent    `json:"applyset,omitempty"`
	Changes   []jsonChange    `json:"changes"`
	Warnings  []plan.Warning  `json:"warnings,omitempty"`
}

type jsonPlanSummary struct {
	Add       int `json:"add"`
	Change    int `json:"change"`
	Replace   int `json:"replace"`
	Prune     int `json:"prune"`
	Release   int `json:"release,omitempty"`
	Unchanged int `json:"unchanged"`
	Drifted   int `json:"drifted"`
}

// jsonChange is plan.Change without Object and LiveResourceVersion.
type jsonChange struct {
	Ref      plan.Ref     `json:"ref"`
	Action   plan.Action  `json:"action"`
	Reason   string       `json:"reason,omitempty"`
	Source   *plan.Source `json:"source,omitempty"`
	Diff     string       `json:"diff,omitempty"`
	Drift    []plan.Drift `json:"drift,omitempty"`
	AfterCRD bool         `json:"afterCRD,omitempty"`
	WaitsFor string       `json:"waitsFor,omitempty"`
	Owner    string       `json:"owner,omitempty"`
	Hook     string       `json:"hook,omitempty"`
}
