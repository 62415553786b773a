package render

import (
	"encoding/json"
	"io"

	"github.com/kubeplan/kubeplan/orphans"
	"github.com/kubeplan/kubeplan/run"
)

// OrphansFormatVersion is the version of kubeplan orphans -o json.
const OrphansFormatVersion = 1

// orphansJSON writes
//
//	{"version": 1,
//	 "projects": [{"project": "shop", "cluster": "prod", "namespace": "shop",
//	               "applyset": "configmap/kubeplan-shop", "namespaces": ["shop"],
//	               "orphans": [{"version": "v1", "kind": "ConfigMap", "resource": "configmaps",
//	                            "namespace": "shop", "name": "hotfix",
//	                            "created": "2026-11-30T10:00:00Z", "lastManager": "kubectl-create"}],
//	               "notChecked": [{"group": "rbac.authorization.k8s.io", "resource": "roles",
//	                               "namespace": "shop", "reason": "forbidden"}],
//	               "lists": 31}],
//	 "total": {"projects": 1, "orphans": 1, "failed": 0}}
//
// A project that could not be read has "error" and no "orphans". A plain
// invocation is a run of one project, written the same way.
func orphansJSON(w io.Writer, r *run.OrphansReport) error {
	type project struct {
		Project   string `json:"project,omitempty"`
		Cluster   string `json:"cluster,omitempty"`
		Namespace string `json:"namespace,omitempty"`
		ApplySet  string `json:"applyset,omitempty"`
		*orphans.Result
		Error string `json:"error,omitempty"`
	}
	type total struct {
		Projects int `json:"projects"`
		Orphans  int `json:"orphans"`
		Failed   int `json:"failed"`
	}
	doc := struct {
		Version  int       `json:"version"`
		Projects []project `json:"projects"`
		Total    total     `json:"total"`
	}{Version: OrphansFormatVersion, Projects: []project{}, Total: total{Projects: len(r.Projects), Orphans: r.Count()}}
	for i, p := range r.Projects {
		f := r.Found[i]
		if f != nil && f.Objects == nil {
			c := *f
			c.Objects = []orphans.Object{}
			f = &c
		}
		doc.Projects = append(doc.Projects, project{Project: runName(p), Cluster: p.Cluster, Namespace: p.Namespace, ApplySet: p.ApplySet, Result: f, Error: p.Error})
		if p.Error != "" {
			doc.Total.Failed++
		}
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(doc)
}
