package lint

import (
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// sharedProps has one subschema (a container of 9 nodes) three times.
const sharedProps = `{size: {type: integer}, main: &c {type: object, required: [name], properties: {name: {type: string}, image: {type: string}, port: {type: integer, minimum: 1}, env: {type: array, items: {type: object, properties: {name: {type: string}, value: {type: string}}}}}}, sidecar: *c, init: {type: array, items: *c}}`

// Repeated subschemas are compiled once, as definitions, and validate and
// report (with suggestions) exactly as the repeated copies do.
func TestShareSubschemas(t *testing.T) {
	objs := parseAll(t, testCRD("Pod", sharedProps))
	cs, err := collectCRDs(objs)
	if err != nil {
		t.Fatal(err)
	}
	s := cs.versions[crdKey("example.com", "v1", "Pod")].schema
	c, err := s.get(newCRDCache(0))
	if err != nil {
		t.Fatal(err)
	}
	defs, _ := c.raw.(map[string]any)["definitions"].(map[string]any)
	if len(defs) != 1 {
		t.Fatalf("definitions: %d, want the container once", len(defs))
	}
	raw := crdToJSONSchema(objs[0].Content["spec"].(map[string]any)["versions"].([]any)[0].(map[string]any)["schema"].(map[string]any)["openAPIV3Schema"].(map[string]any), true)
	plain, err := compileSchema("mem:///plain.json", raw)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range []string{
		`{"spec": {"main": {"name": "a", "port": 80}, "sidecar": {"name": "b"}, "init": [{"name": "c", "env": [{"name": "X", "value": "1"}]}]}}`,
		`{"spec": {"main": {"name": "a"}, "sidecar": {"port": 0}}}`,
		`{"spec": {"init": [{"name": "c", "env": [{"name": 1}]}, {"nmae": "d"}]}}`,
		`{"spec": {"sidecar": {"name": "b", "imgae": "x"}}}`,
	} {
		doc := mustJSON(t, v)
		e1, e2 := plain.Validate(doc), c.validate(doc)
		if valid := i == 0; (e2 == nil) != valid || !valid && errorLeaves(e2) == "" {
			t.Errorf("%s: valid = %v, want %v (%v)", v, e2 == nil, valid, e2)
		}
		if (e1 == nil) != (e2 == nil) || e1 != nil && errorLeaves(e1) != errorLeaves(e2) {
			t.Errorf("%s:\n repeated: %v\n shared:   %v", v, e1, e2)
		}
	}
	l, err := newLinter(Options{})
	if err != nil {
		t.Fatal(err)
	}
	l.crds = cs
	fs, err := l.checkObject(parseAll(t, "apiVersion: example.com/v1\nkind: Pod\nmetadata: {name: p}\nspec:\n  sidecar: {name: b, imgae: x}\n")[0])
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 1 || !strings.Contains(fs[0].Message, `did you mean "image"`) {
		t.Errorf("findings = %+v, want one suggesting image", fs)
	}
}

func mustJSON(t *testing.T, s string) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(strings.NewReader(s))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// errorLeaves is the failed keywords of a validation error and where, sorted.
func errorLeaves(err error) string {
	var out []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			out = append(out, "/"+strings.Join(e.InstanceLocation, "/")+" "+strings.Join(e.ErrorKind.KeywordPath(), "/"))
		}
		for _, c := range e.Causes {
			walk(c)
		}
	}
	if ve, ok := err.(*jsonschema.ValidationError); ok {
		walk(ve)
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}
