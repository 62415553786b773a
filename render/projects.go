package render

import (
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"text/tabwriter"

	"github.com/kubeplan/kubeplan/project"
)

// ProjectsFormats are the formats Projects accepts.
func ProjectsFormats() []string { return []string{"text", "json"} }

// Projects writes the projects of a repository: a table (NAME KIND PATH
// FILES, the count of files each reads) or, for "json", one document:
//
//	{
//	  "version": 1,
//	  "projects": [        // always an array, sorted by path
//	    {"name": "apps-web-overlays-prod", "path": "apps/web/overlays/prod",
//	     "kind": "kustomize",              // or "manifests"
//	     "files": ["apps/web/base/deployment.yaml", ...]}  // relative to the root
//	  ]
//	}
func Projects(w io.Writer, format string, ps []project.Project) error {
	switch format {
	case "", "text":
		if len(ps) == 0 {
			_, err := fmt.Fprintln(w, "no projects")
			return err
		}
		tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
		fmt.Fprintln(tw, "NAME\tKIND\tPATH\tFILES")
		for _, p := range ps {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", p.Name, p.Kind, p.Path, strconv.Itoa(len(p.Files)))
		}
		return tw.Flush()
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
