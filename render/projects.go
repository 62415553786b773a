package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/kubeplan/kubeplan/project"
)

// ProjectsFormats are the formats Projects accepts.
func ProjectsFormats() []string { return []string{"text", "json"} }

// Projects writes the projects of a repository: a table (NAME KIND PATH
// FILES, the count of files each reads, then NAMESPACE, APPLYSET, CLUSTER
// and DEPENDS, each when some project has it) or, for "json", one document:
//
//	{
//	  "version": 1,
//	  "projects": [        // always an array, sorted by path
//	    {"name": "apps-web-overlays-prod", "path": "apps/web/overlays/prod",
//	     "kind": "kustomize",              // or "manifests"
//	     "files": ["apps/web/base/deployment.yaml", ...],  // relative to the root
//	     // the settings, each left out when empty:
//	     "namespace": "web", "applyset": "configmap/kubeplan-apps-web-overlays-prod",
//	     "cluster": "prod", "kubeVersion": "1.36",
//	     "dependsOn": ["platform-crds"]}
//	  ]
//	}
func Projects(w io.Writer, format string, ps []project.Project) error {
	switch format {
	case "", "text":
		return projectsText(w, ps)
	case "json":
		if ps == nil {
			ps = []project.Project{}
		}
		for i := range ps {
			if ps[i].Files == nil {
				ps[i].Files = []string{}
			}
		}
		enc := json.NewEncoder(w)
		enc.SetIndent("", "  ")
		return enc.Encode(struct {
			Version  int               `json:"version"`
			Projects []project.Project `json:"projects"`
		}{JSONVersion, ps})
	}
	return fmt.Errorf("unknown output format %q (want text or json)", format)
}

// projectColumn is a column of the projects table.
type projectColumn struct {
	head  string
	value func(project.Project) string
	// always is true for the columns every table has.
	always bool
}

var projectColumns = []projectColumn{
	{"NAME", func(p project.Project) string { return p.Name }, true},
	{"KIND", func(p project.Project) string { return string(p.Kind) }, true},
	{"PATH", func(p project.Project) string { return p.Path }, true},
	{"FILES", func(p project.Project) string { return strconv.Itoa(len(p.Files)) }, true},
	{"NAMESPACE", func(p project.Project) string { return p.Namespace }, false},
	{"APPLYSET", func(p project.Project) string { return p.ApplySet }, false},
	{"CLUSTER", func(p project.Project) string { return p.Cluster() }, false},
	{"DEPENDS", func(p project.Project) string { return strings.Join(p.DependsOn, ",") }, false},
}

// projectsText is the table, with the optional columns some project fills;
// an empty cell is "-".
func projectsText(w io.Writer, ps []project.Project) error {
	if len(ps) == 0 {
		_, err := fmt.Fprintln(w, "no projects")
		return err
	}
	var cols []projectColumn
	for _, c := range projectColumns {
		for _, p := range ps {
			if c.always || c.value(p) != "" {
				cols = append(cols, c)
				break
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	row := make([]string, len(cols))
	for i, c := range cols {
		row[i] = c.head
	}
	fmt.Fprintln(tw, strings.Join(row, "\t"))
	for _, p := range ps {
		for i, c := range cols {
			if row[i] = c.value(p); row[i] == "" {
				row[i] = "-"
			}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	return tw.Flush()
}
