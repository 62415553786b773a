package kustomize

import (
	"fmt"

	"github.com/kubeplan/kubeplan/manifest"
	yaml "go.yaml.in/yaml/v3"
)

// kustomizeDeprecated maps the kustomization fields kustomize/api v0.21
// deprecates to their replacement. kustomize prints one raw "# Warning"
// line per field and build to the process's log; kubeplan reports one
// warning finding per field and file instead, at the field.
var kustomizeDeprecated = map[string]string{
	"bases":                 "resources",
	"commonLabels":          "labels",
	"imageTags":             "images",
	"patchesJson6902":       "patches",
	"patchesStrategicMerge": "patches",
	"vars":                  "replacements",
}

// deprecatedProblems lists the deprecated fields of the kustomizations a
// build read, once per file and field, as warnings.
func deprecatedProblems(read []readKustomization) []*manifest.Problem {
	var out []*manifest.Problem
	seen := map[string]bool{}
	for _, k := range read {
		if seen[k.File] {
			continue
		}
		seen[k.File] = true
		var doc yaml.Node
		if yaml.Unmarshal(k.Data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			continue
		}
		m := doc.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			key := m.Content[i]
			if use, ok := kustomizeDeprecated[key.Value]; ok {
				out = append(out, &manifest.Problem{File: k.File, Pos: manifest.Pos{Line: key.Line, Col: key.Column}, Rule: "kustomize-deprecated", Warning: true,
					Message: fmt.Sprintf("%q is deprecated by kustomize: use %q instead (kustomize edit fix rewrites it)", key.Value, use)})
			}
		}
	}
	return out
}
