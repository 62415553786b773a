package lint

import (
	"fmt"
	"strconv"

	"github.com/kubeplan/kubeplan/manifest"
)

// crdVersion is one served version of a CustomResourceDefinition found in
// the set or in --crds.
type crdVersion struct {
	crd      *manifest.Object
	index    int // position in spec.versions
	served   bool
	raw      map[string]any // openAPIV3Schema as written
	compiled *compiled      // nil when the CRD has no schema
	err      error          // the schema did not compile
}

// crdKey identifies a custom resource type.
func crdKey(group, version, kind string) string { return group + "/" + version + "/" + kind }

// collectCRDs indexes every apiextensions.k8s.io/v1 CRD by group/version/
// kind. Schema compile failures are reported as findings on the CRD.
func collectCRDs(objs []*manifest.Object) (map[string]*crdVersion, []Finding) {
	out := map[string]*crdVersion{}
	var findings []Finding
	for _, o := range objs {
		if o.Kind != "CustomResourceDefinition" || o.Group() != "apiextensions.k8s.io" || o.Version() != "v1" {
			continue
		}
		group := o.GetString("spec", "group")
		kind := o.GetString("spec", "names", "kind")
		versions, _ := mustGet(o, "spec", "versions").([]any)
		if group == "" || kind == "" {
			continue // the schema check reports the missing fields
		}
		for i, vv := range versions {
			vm, _ := vv.(map[string]any)
			name, _ := vm["name"].(string)
			if name == "" {
				continue
			}
			key := crdKey(group, name, kind)
			if _, dup := out[key]; dup {
				continue
			}
			cv := &crdVersion{crd: o, index: i}
			cv.served, _ = vm["served"].(bool)
			sch, _ := vm["schema"].(map[string]any)
			cv.raw, _ = sch["openAPIV3Schema"].(map[string]any)
			if cv.raw != nil {
				doc := crdToJSONSchema(cv.raw, true)
				url := fmt.Sprintf("mem:///crd/%s/%s/%s.json", group, name, kind)
				s, err := compileSchema(url, doc)
				if err != nil {
					cv.err = err
					findings = append(findings, objectFinding(o,
						[]string{"spec", "versions", strconv.Itoa(i), "schema", "openAPIV3Schema"}, Error, "crd-schema",
						fmt.Sprintf("the openAPIV3Schema of version %s is not a valid schema: %v", name, err)))
				} else {
					cv.compiled = &compiled{schema: s, raw: doc}
				}
			}
			out[key] = cv
		}
	}
	return out, findings
}

// CRDToJSONSchema converts a CRD version's openAPIV3Schema into the strict
// JSON schema kubeplan validates its custom resources with (for tools and
// benchmarks that must use the very same schema).
func CRDToJSONSchema(openAPIV3Schema map[string]any) map[string]any {
	return crdToJSONSchema(openAPIV3Schema, true)
}

func mustGet(o *manifest.Object, path ...string) any {
	v, _ := o.Get(path...)
	return v
}

// crdToJSONSchema converts a structural OpenAPI v3 schema into the JSON
// schema the validator understands, with the API server's semantics:
// nullable, int-or-string, preserve-unknown-fields, embedded resources, and
// unknown fields rejected (kubectl's default strict field validation).
func crdToJSONSchema(s map[string]any, root bool) map[string]any {
	out := make(map[string]any, len(s))
	for k, v := range s {
		switch k {
		case "properties", "patternProperties":
			props, _ := v.(map[string]any)
			np := make(map[string]any, len(props))
			for pk, pv := range props {
				if pm, ok := pv.(map[string]any); ok {
					np[pk] = crdToJSONSchema(pm, false)
				}
			}
			out[k] = np
		case "items", "additionalProperties", "not":
			if m, ok := v.(map[string]any); ok {
				out[k] = crdToJSONSchema(m, false)
			} else {
				out[k] = v
			}
		case "allOf", "anyOf", "oneOf":
			list, _ := v.([]any)
			nl := make([]any, 0, len(list))
			for _, it := range list {
				if m, ok := it.(map[string]any); ok {
					nl = append(nl, crdToJSONSchema(m, false))
				}
			}
			out[k] = nl
		case "nullable", "x-kubernetes-validations", "description", "example", "externalDocs":
			// handled below or not validation
		default:
			out[k] = v
		}
	}
	preserve, _ := s["x-kubernetes-preserve-unknown-fields"].(bool)
	if ios, _ := s["x-kubernetes-int-or-string"].(bool); ios {
		delete(out, "type")
		if _, has := out["anyOf"]; !has {
			out["anyOf"] = []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}
		}
	}
	embedded, _ := s["x-kubernetes-embedded-resource"].(bool)
	if root || embedded {
		props, _ := out["properties"].(map[string]any)
		if props == nil && !preserve {
			props = map[string]any{}
		}
		if props != nil {
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
	}
	if t, _ := out["type"].(string); (t == "object" || out["properties"] != nil) && !preserve {
		if _, has := out["additionalProperties"]; !has && out["properties"] != nil {
			out["additionalProperties"] = false
		}
	}
	if n, _ := s["nullable"].(bool); n {
		if t, ok := out["type"].(string); ok {
			out["type"] = []any{t, "null"}
		}
	}
	return out
}
