package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// crdSchemaFile is the name kubeconform's template
// {{ .ResourceKind }}{{ .KindSuffix }}.json gives a kind of a group and
// version: the lower-case kind, the first label of the group, the version.
func crdSchemaFile(group, version, kind string) string {
	first, _, _ := strings.Cut(group, ".")
	return strings.ToLower(kind) + "-" + strings.ToLower(first) + "-" + strings.ToLower(version) + ".json"
}

// writeCRDSchema writes the Widget schema for kubeconform into dir.
func writeCRDSchema(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	b, err := json.MarshalIndent(strictJSONSchema(widgetSchema(), true), "", "  ")
	if err != nil {
		return err
	}
	path := filepath.Join(dir, crdSchemaFile(widgetGroup, widgetVersion, widgetKind))
	return os.WriteFile(path, append(b, '\n'), 0o644)
}

// strictJSONSchema converts a structural OpenAPI v3 schema into a JSON
// schema the way kubeconform's openapi2jsonschema.py does in strict mode:
// objects with properties reject unknown ones (unless they preserve unknown
// fields), nullable adds "null" to the type, int-or-string becomes an anyOf,
// and the root accepts apiVersion, kind and metadata.
func strictJSONSchema(s map[string]any, root bool) map[string]any {
	out := make(map[string]any, len(s))
	for k, v := range s {
		switch k {
		case "properties", "patternProperties":
			props, _ := v.(map[string]any)
			np := make(map[string]any, len(props))
			for pk, pv := range props {
				if pm, ok := pv.(map[string]any); ok {
					np[pk] = strictJSONSchema(pm, false)
				}
			}
			out[k] = np
		case "items", "additionalProperties", "not":
			if m, ok := v.(map[string]any); ok {
				out[k] = strictJSONSchema(m, false)
			} else {
				out[k] = v
			}
		case "allOf", "anyOf", "oneOf":
			list, _ := v.([]any)
			nl := make([]any, 0, len(list))
			for _, it := range list {
				if m, ok := it.(map[string]any); ok {
					nl = append(nl, strictJSONSchema(m, false))
				}
			}
			out[k] = nl
		case "nullable", "description":
		default:
			if !strings.HasPrefix(k, "x-kubernetes-") {
				out[k] = v
			}
		}
	}
	preserve, _ := s["x-kubernetes-preserve-unknown-fields"].(bool)
	if ios, _ := s["x-kubernetes-int-or-string"].(bool); ios {
		delete(out, "type")
		out["anyOf"] = []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}
	}
	if root {
		props, _ := out["properties"].(map[string]any)
		if props == nil {
			props = map[string]any{}
		}
		for _, f := range []string{"apiVersion", "kind"} {
			if _, ok := props[f]; !ok {
				props[f] = map[string]any{"type": "string"}
			}
		}
		if _, ok := props["metadata"]; !ok {
			props["metadata"] = map[string]any{"type": "object"}
		}
		out["properties"] = props
	}
	if _, has := out["additionalProperties"]; !has && out["properties"] != nil && !preserve {
		out["additionalProperties"] = false
	}
	if n, _ := s["nullable"].(bool); n {
		if t, ok := out["type"].(string); ok {
			out["type"] = []any{t, "null"}
		}
	}
	return out
}
