package lint

import (
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"sigs.k8s.io/yaml"

	"github.com/kubeplan/kubeplan/internal/kubeapi"
	"github.com/kubeplan/kubeplan/manifest"
)

// The fast validator is judged by jsonschema/v6: on every built-in schema,
// random objects (valid ones and ones with wrong types, unknown and
// misspelt fields, missing required fields, bad date-times, fractions in
// integers, NaN) must get the same errors from both, and the same lint
// findings, word for word and position for position.
func TestFastSchemaAgreesWithJSONSchema(t *testing.T) {
	dir, err := kubeapi.Dir()
	if err != nil {
		t.Fatal(err)
	}
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil || len(files) < 200 {
		t.Fatalf("built-in schemas: %d files, %v", len(files), err)
	}
	perSchema := 40
	if testing.Short() {
		perSchema = 10
	}
	rng := rand.New(rand.NewPCG(33, 1))
	var compared, invalid, findingsCompared int
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		doc, err := jsonschema.UnmarshalJSON(strings.NewReader(string(data)))
		if err != nil {
			t.Fatal(err)
		}
		fast := compileFast(doc)
		if fast == nil {
			t.Errorf("%s: not in the fast subset; every built-in schema should be", filepath.Base(f))
			continue
		}
		ref, err := compileSchema(f, doc)
		if err != nil {
			t.Fatal(err)
		}
		g := &instanceGen{rng: rng, root: doc.(map[string]any)}
		for i := range perSchema {
			g.mutate = []float64{0, 0.02, 0.08, 0.2}[i%4]
			v := g.value(doc.(map[string]any), 0)
			want, got := leafKeys(ref.Validate(v)), leafKeys(fast.Validate(v))
			compared++
			if fast.root.valid(v) != (len(want) == 0) {
				t.Errorf("%s, instance %d: valid() = %v, but jsonschema found %q", filepath.Base(f), i, fast.root.valid(v), want)
			}
			if len(want) > 0 {
				invalid++
			}
			if !slices.Equal(want, got) {
				t.Errorf("%s, instance %d:\n%s\njsonschema: %q\nfast:       %q", filepath.Base(f), i, show(v), want, got)
				continue
			}
			if m, ok := v.(map[string]any); ok && i%4 != 0 && noNaN(v) {
				findingsCompared++
				compareFindings(t, filepath.Base(f), m, &compiled{schema: ref, raw: doc}, &compiled{fast: fast, raw: doc})
			}
		}
	}
	t.Logf("%d schemas, %d instances (%d invalid), findings compared on %d", len(files), compared, invalid, findingsCompared)
	if invalid < compared/3 {
		t.Errorf("only %d of %d instances invalid: the generator does not exercise the errors", invalid, compared)
	}
}

// compareFindings lints v, written out as YAML, with both schemas.
func compareFindings(t *testing.T, name string, v map[string]any, ref, fast *compiled) {
	t.Helper()
	data, err := yaml.Marshal(v)
	if err != nil {
		return
	}
	objs, _ := manifest.Parse("x.yaml", data)
	if len(objs) != 1 {
		return
	}
	o := objs[0]
	render := func(c *compiled) []string {
		var out []string
		if err := c.validate(o.Content); err != nil {
			for _, f := range schemaFindings(o, c, err, "schema") {
				out = append(out, fmt.Sprintf("%d:%d-%d:%d %s", f.Line, f.Col, f.EndLine, f.EndCol, f.Message))
			}
		}
		sort.Strings(out)
		return out
	}
	if want, got := render(ref), render(fast); !slices.Equal(want, got) {
		t.Errorf("%s findings differ on\n%s\njsonschema: %q\nfast:       %q", name, data, want, got)
	}
}

// leafKeys describes what schemaFindings reads of an error: each leaf (a
// oneOf error with its causes) by instance location, kind, words and the
// schema's place in the document, sorted.
func leafKeys(err error) []string {
	if err == nil {
		return nil
	}
	ve, ok := err.(*jsonschema.ValidationError)
	if !ok {
		return []string{"not a ValidationError: " + err.Error()}
	}
	var leaves []*jsonschema.ValidationError
	collectLeaves(ve, &leaves)
	var out []string
	for _, l := range leaves {
		out = append(out, leafKey(l))
	}
	sort.Strings(out)
	return out
}

func leafKey(l *jsonschema.ValidationError) string {
	k := l.ErrorKind
	if a, ok := k.(*kind.AdditionalProperties); ok {
		p := slices.Clone(a.Properties)
		sort.Strings(p)
		k = &kind.AdditionalProperties{Properties: p}
	}
	frag := l.SchemaURL
	if i := strings.IndexByte(frag, '#'); i >= 0 {
		frag = frag[i:]
	}
	key := fmt.Sprintf("%s %T %s @%s", strings.Join(l.InstanceLocation, "/"), k, k.LocalizedString(printer), frag)
	switch k.(type) {
	case *kind.OneOf, *kind.AnyOf:
		// schemaFindings reads the causes: their kinds, and their leaves
		var causes []string
		for _, c := range l.Causes {
			causes = append(causes, causeKey(c))
		}
		sort.Strings(causes)
		key += " [" + strings.Join(causes, "; ") + "]"
	}
	return key
}

// causeKey is a cause of a oneOf or anyOf error: the cause itself when it
// is a leaf (schemaFindings reads a cause's kind), else its leaves,
// sorted (both validators meet an object's fields in map order). How the
// errors nest under a cause is not compared: jsonschema groups them by
// subschema, a fast schema does not.
func causeKey(c *jsonschema.ValidationError) string {
	var leaves []*jsonschema.ValidationError
	collectLeaves(c, &leaves)
	if len(leaves) == 1 && leaves[0] == c {
		return leafKey(c)
	}
	var keys []string
	for _, l := range leaves {
		keys = append(keys, leafKey(l))
	}
	sort.Strings(keys)
	return "nested {" + strings.Join(keys, "; ") + "}"
}

func show(v any) string {
	b, err := yaml.Marshal(v)
	if err != nil {
		return fmt.Sprintf("%#v", v)
	}
	return string(b)
}

func noNaN(v any) bool {
	switch v := v.(type) {
	case float64:
		return !math.IsNaN(v) && !math.IsInf(v, 0)
	case map[string]any:
		for _, x := range v {
			if !noNaN(x) {
				return false
			}
		}
	case []any:
		for _, x := range v {
			if !noNaN(x) {
				return false
			}
		}
	}
	return true
}

// instanceGen makes random instances of a schema; with probability mutate
// at each node it breaks the instance in one of the ways manifests do.
type instanceGen struct {
	rng    *rand.Rand
	root   map[string]any
	mutate float64
}

func (g *instanceGen) resolve(s map[string]any) map[string]any {
	for {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		var cur any = g.root
		for _, tok := range strings.Split(strings.TrimPrefix(ref, "#/"), "/") {
			cur = cur.(map[string]any)[tok]
		}
		s = cur.(map[string]any)
	}
}

func (g *instanceGen) value(s map[string]any, depth int) any {
	if g.rng.Float64() < g.mutate {
		return g.wrong()
	}
	s = g.resolve(s)
	if one, ok := s["oneOf"].([]any); ok {
		return g.value(one[g.rng.IntN(len(one))].(map[string]any), depth)
	}
	s = g.merged(s)
	if v, ok := g.enumValue(s); ok {
		return v
	}
	var types []string
	switch t := s["type"].(type) {
	case string:
		types = []string{t}
	case []any:
		for _, x := range t {
			types = append(types, x.(string))
		}
	}
	if len(types) == 0 {
		return g.wrong()
	}
	typ := types[0]
	if len(types) > 1 && g.rng.IntN(10) == 0 {
		typ = types[g.rng.IntN(len(types))]
	}
	switch typ {
	case "null":
		return nil
	case "boolean":
		return g.rng.IntN(2) == 0
	case "integer":
		return g.number(s, true)
	case "number":
		return g.number(s, false)
	case "string":
		return g.str(s)
	case "array":
		items, _ := s["items"].(map[string]any)
		if items == nil || depth > 6 {
			return []any{}
		}
		out := []any{}
		for range g.arrayLen(s) {
			out = append(out, g.value(items, depth+1))
		}
		if s["uniqueItems"] == true && len(out) > 0 && g.mutate > 0 && g.rng.IntN(3) == 0 {
			out = append(out, out[g.rng.IntN(len(out))]) // a duplicate
		}
		return out
	case "object":
		out := g.object(s, depth)
		g.patternNames(s, out, depth)
		g.propCount(s, out)
		return out
	}
	return nil
}

func (g *instanceGen) object(s map[string]any, depth int) map[string]any {
	out := map[string]any{}
	props, _ := s["properties"].(map[string]any)
	required := map[string]bool{}
	if r, ok := s["required"].([]any); ok {
		for _, x := range r {
			required[x.(string)] = true
		}
	}
	names := make([]string, 0, len(props))
	for name := range props {
		names = append(names, name)
	}
	sort.Strings(names)
	p := 0.5 / float64(depth+1)
	for _, name := range names {
		if (required[name] && g.rng.Float64() > g.mutate) || (depth < 7 && g.rng.Float64() < p) {
			out[name] = g.value(props[name].(map[string]any), depth+1)
		}
	}
	if addl, ok := s["additionalProperties"].(map[string]any); ok && depth < 7 {
		for i := range g.rng.IntN(3) {
			out[fmt.Sprintf("key-%d", i)] = g.value(addl, depth+1)
		}
	}
	if g.rng.Float64() < g.mutate {
		if len(names) > 0 && g.rng.IntN(2) == 0 {
			n := names[g.rng.IntN(len(names))]
			out[n[:len(n)-1]+"x"] = "typo" // a misspelt field: "did you mean"
		} else {
			out[fmt.Sprintf("unknown%d", g.rng.IntN(5))] = int64(1)
		}
	}
	return out
}

// wrong is a value of a random type, often not the one the schema wants.
func (g *instanceGen) wrong() any {
	switch g.rng.IntN(9) {
	case 0:
		return "text"
	case 1:
		return true
	case 2:
		return int64(7)
	case 3:
		return 2.5
	case 4:
		return map[string]any{"a": "b"}
	case 5:
		return []any{"x"}
	case 6:
		return nil
	case 7:
		return math.NaN()
	}
	return "2024-01-02T03:04:05Z"
}

// A schema outside the subset falls back to jsonschema.
func TestFastSchemaFallsBack(t *testing.T) {
	for _, doc := range []string{
		`{"type": "object", "properties": {"a": {"enum": [{"x": 1}]}}}`,
		`{"type": "string", "pattern": "^(a"}`,
		`{"type": "object", "patternProperties": {"[": {"type": "string"}}}`,
		`{"$ref": "https://example.com/s.json"}`,
		`{"type": "array", "items": [{"type": "string"}]}`,
		`{"type": "number", "minimum": 1, "exclusiveMinimum": 2}`,
		`{"type": "string", "minLength": 1.5}`,
		`{"type": "number", "multipleOf": 0}`,
		`{"const": 1}`,
		`{"dependencies": {"a": ["b"]}}`,
		`{"type": "strin"}`,
		`{"$ref": "#/definitions/missing"}`,
	} {
		d, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if compileFast(d) != nil {
			t.Errorf("compileFast(%s) took it; it is outside the subset", doc)
		}
	}
	for _, doc := range []string{
		`{"type": ["string", "null"], "format": "int64", "description": "x", "x-kubernetes-patch-strategy": "merge", "default": "1"}`,
		`{"type": "object", "properties": {"a": {"type": "string", "enum": ["x", 1, null]}}, "minProperties": 1}`,
		`{"type": "string", "pattern": "^a", "format": "hostname", "minLength": 1, "maxLength": 3}`,
		`{"allOf": [{"type": "string"}], "anyOf": [{"type": "string"}], "not": {"type": "integer"}}`,
		`{"type": "number", "minimum": 1, "exclusiveMinimum": true, "maximum": 1e3, "multipleOf": 0.5}`,
		`{"type": "array", "items": {"type": "string"}, "uniqueItems": true, "minItems": 1, "maxItems": 2}`,
	} {
		d, err := jsonschema.UnmarshalJSON(strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		if compileFast(d) == nil {
			t.Errorf("compileFast(%s) = nil; it is in the subset", doc)
		}
	}
}
