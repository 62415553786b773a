package manifest

import (
	"fmt"

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
func deprecatedProblems(read []readKustomization) []*Problem {
	var out []*Problem
	seen := map[string]bool{}
	for _, k := range read {
		if seen[k.file] {
			continue
		}
		seen[k.file] = true
		var doc yaml.Node
		if yaml.Unmarshal(k.data, &doc) != nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			continue
		}
		m := doc.Content[0]
		for i := 0; i+1 < len(m.Content); i += 2 {
			key := m.Content[i]
			if use, ok := kustomizeDeprecated[key.Value]; ok {
				out = append(out, &Problem{File: k.file, Pos: Pos{key.Line, key.Column}, Rule: "kustomize-deprecated", Warning: true,
					Message: fmt.Sprintf("%q is deprecated by kustomize: use %q instead (kustomize edit fix rewrites it)", key.Value, use)})
			}
		}
	}
	return out
}
