package admissiondiff

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"

	"sigs.k8s.io/yaml"
)

// LibrarySub is where the public policy library of the differential test
// (kubescape/cel-admission-library, with its LICENSE and a SOURCE naming
// the commit) is staged among the public inputs (internal/testing/publicdata: it is
// not committed).
const LibrarySub = "policies/kubescape"

// LibraryCRDs are the library's CustomResourceDefinitions (the paramKind
// of its configurable policies), under the library's directory.
const LibraryCRDs = "configuration/policy-configuration-definition.yaml"

// LibraryCases reads the library's policies and makes, for each, the
// binding its README shows (paramRef by name without a namespace, its
// paramKind being cluster-scoped), then a planted defect of the policy and
// one of the binding, rotating over the kinds of mistake people make: the
// API server refuses every defect, lint must too.
func LibraryCases(dir string) ([]PolicyCase, error) {
	files, err := filepath.Glob(filepath.Join(dir, "controls", "*", "policy.yaml"))
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	if len(files) == 0 {
		return nil, fmt.Errorf("no policies under %s", dir)
	}
	var out []PolicyCase
	for i, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		var pol map[string]any
		if err := yaml.Unmarshal(b, &pol); err != nil {
			return nil, fmt.Errorf("%s: %w", f, err)
		}
		control := filepath.Base(filepath.Dir(f))
		name, _ := pol["metadata"].(map[string]any)["name"].(string)
		spec, _ := pol["spec"].(map[string]any)
		_, hasParams := spec["paramKind"]
		bind := libraryBinding(name, hasParams)
		out = append(out,
			PolicyCase{Name: control + "/policy", Object: pol},
			PolicyCase{Name: control + "/binding", Object: bind})
		pd, bd := policyDefects[i%len(policyDefects)], bindingDefects[i%len(bindingDefects)]
		if !hasParams && bd.needsParams {
			bd = bindingDefects[0]
		}
		for _, c := range []struct {
			kind string
			obj  map[string]any
			d    defect
		}{{"policy", pol, pd}, {"binding", bind, bd}} {
			obj, err := deepCopy(c.obj)
			if err != nil {
				return nil, err
			}
			// its own name, so that lint sees no second definition
			meta := obj["metadata"].(map[string]any)
			meta["name"] = meta["name"].(string) + "-defect"
			for _, e := range c.d.edits(obj) {
				if err := apply(obj, strings.Split(e.path, "."), e.value); err != nil {
					return nil, fmt.Errorf("%s %s defect %q: %w", control, c.kind, c.d.name, err)
				}
			}
			out = append(out, PolicyCase{Name: control + "/" + c.kind + " with " + c.d.name, Object: obj})
		}
	}
	return out, nil
}

func libraryBinding(policy string, params bool) map[string]any {
	spec := map[string]any{
		"policyName":        policy,
		"validationActions": []any{"Deny"},
		"matchResources": map[string]any{
			"namespaceSelector": map[string]any{"matchLabels": map[string]any{"policy": "enforced"}},
		},
	}
	if params {
		spec["paramRef"] = map[string]any{"name": "basic-control-configuration", "parameterNotFoundAction": "Deny"}
	}
	return map[string]any{
		"apiVersion": "admissionregistration.k8s.io/v1",
		"kind":       "ValidatingAdmissionPolicyBinding",
		"metadata":   map[string]any{"name": strings.TrimPrefix(policy, "kubescape-") + "-binding"},
		"spec":       spec,
	}
}

// defect is a planted mistake: edits makes the changes for one object.
type defect struct {
	name        string
	needsParams bool
	edits       func(obj map[string]any) []edit
}

func fixed(es ...edit) func(map[string]any) []edit {
	return func(map[string]any) []edit { return es }
}

var policyDefects = []defect{
	{name: "validations misspelt", edits: func(obj map[string]any) []edit {
		spec := obj["spec"].(map[string]any)
		if v, ok := spec["validations"]; ok {
			return []edit{remove("spec.validations"), set("spec.validation", v)}
		}
		return []edit{set("spec.validation", []any{})}
	}},
	{name: "failurePolicy misspelt", edits: fixed(set("spec.failurePolicy", "Fial"))},
	{name: "an expression that does not compile", edits: func(obj map[string]any) []edit {
		spec := obj["spec"].(map[string]any)
		if vs, _ := spec["validations"].([]any); len(vs) > 0 {
			e, _ := vs[0].(map[string]any)["expression"].(string)
			return []edit{set("spec.validations.0.expression", strings.TrimSpace(e)+" &&")}
		}
		return []edit{set("spec.matchConditions", []any{map[string]any{"name": "broken", "expression": "object.kind =="}})}
	}},
	{name: "a reserved name", edits: func(obj map[string]any) []edit {
		name := obj["metadata"].(map[string]any)["name"].(string)
		return []edit{set("metadata.name", name+".static.k8s.io")}
	}},
	{name: "no resource rules", edits: fixed(remove("spec.matchConstraints.resourceRules"))},
	{name: "an operation in lower case", edits: fixed(set("spec.matchConstraints.resourceRules.0.operations", []any{"create"}))},
}

var bindingDefects = []defect{
	{name: "no validationActions", edits: fixed(remove("spec.validationActions"))},
	{name: "paramRef without parameterNotFoundAction", needsParams: true, edits: fixed(remove("spec.paramRef.parameterNotFoundAction"))},
	{name: "paramRef namespace misspelt", needsParams: true, edits: fixed(set("spec.paramRef.namspace", "default"))},
	{name: "Deny and Warn", edits: fixed(set("spec.validationActions", []any{"Deny", "Warn"}))},
	{name: "a name not a DNS subdomain", edits: fixed(set("metadata.name", "C-binding"))},
}

func deepCopy(in map[string]any) (map[string]any, error) {
	b, err := yaml.Marshal(in)
	if err != nil {
		return nil, err
	}
	var out map[string]any
	return out, yaml.Unmarshal(b, &out)
}
