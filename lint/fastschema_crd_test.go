package lint

import (
	"encoding/json"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/txtar"

	"github.com/kubeplan/kubeplan/manifest"
)

// crdFallbacks are the CRD schemas of the testdata that legitimately are
// not compiled fast, by "file version", with why. None today.
var crdFallbacks = map[string]string{}

// Custom resources are validated by the fast validator when the CRD's
// schema is in its subset; jsonschema/v6 judges it: on every CRD version
// schema of the repository's testdata and vendored charts, random custom
// resources (valid ones, and ones with values at and past their bounds,
// enum strangers, strings that miss their pattern, duplicate items,
// unknown fields, wrong types) must get the same errors from both, and
// the same lint findings. KUBEPLAN_FASTSCHEMA_CRDS adds directories (such
// as a benchmark corpus) to the search.
func TestFastSchemaAgreesOnCRDs(t *testing.T) {
	roots := []string{"testdata", filepath.Join("..", "testdata"), filepath.Join("..", "deploy")}
	if extra := os.Getenv("KUBEPLAN_FASTSCHEMA_CRDS"); extra != "" {
		roots = append(roots, filepath.SplitList(extra)...)
	}
	schemas := crdSchemasIn(t, roots)
	schemas = append(schemas, crdSchemasOf(t, "every-keyword.yaml", []byte(everyKeywordCRD))...)
	if len(schemas) < 20 {
		t.Fatalf("found %d CRD version schemas in %v; the testdata has more", len(schemas), roots)
	}
	perSchema := 60
	if testing.Short() {
		perSchema = 15
	}
	rng := rand.New(rand.NewPCG(33, 2))
	var compared, invalid, findingsCompared, fast int
	kinds := map[string]int{} // leaf error kinds jsonschema reported
	for n, cs := range schemas {
		doc := cs.doc
		f := compileFast(doc)
		if f == nil {
			if why, ok := crdFallbacks[cs.name]; ok {
				t.Logf("%s falls back to jsonschema: %s", cs.name, why)
			} else {
				t.Errorf("%s: not in the fast subset; every CRD schema of the testdata should be (or be listed in crdFallbacks with why)", cs.name)
			}
			continue
		}
		fast++
		if !cs.plain {
			t.Errorf("%s: plainlyValid does not vouch for it, so lint would not compile it fast", cs.name)
		}
		ref, err := compileSchema(fmt.Sprintf("mem:///crd/%d.json", n), doc)
		if err != nil {
			t.Fatalf("%s: %v", cs.name, err)
		}
		g := &instanceGen{rng: rng, root: doc}
		runs := perSchema
		if strings.HasPrefix(cs.name, "every-keyword") {
			runs *= 20 // small, and the only user of some keywords
		}
		for i := range runs {
			g.mutate = []float64{0, 0.02, 0.08, 0.2}[i%4]
			v := g.value(doc, 0)
			want, got := leafKeys(ref.Validate(v)), leafKeys(f.Validate(v))
			compared++
			if f.root.valid(v) != (len(want) == 0) {
				t.Errorf("%s, instance %d: valid() = %v, but jsonschema found %q", cs.name, i, f.root.valid(v), want)
			}
			if len(want) > 0 {
				invalid++
			}
			for _, k := range want {
				kinds[kindRE.FindString(k)]++
			}
			if !slices.Equal(want, got) {
				t.Errorf("%s, instance %d:\n%s\njsonschema: %q\nfast:       %q", cs.name, i, show(v), want, got)
				continue
			}
			if m, ok := v.(map[string]any); ok && i%4 != 0 && noNaN(v) {
				findingsCompared++
				raw := skeleton(doc)
				compareFindings(t, cs.name, m, &compiled{schema: ref, raw: raw}, &compiled{fast: f, raw: raw})
			}
		}
	}
	t.Logf("%d CRD schemas (%d fast), %d instances (%d invalid), findings compared on %d", len(schemas), fast, compared, invalid, findingsCompared)
	t.Logf("error kinds: %v", kinds)
	for _, k := range []string{"*kind.Type", "*kind.Required", "*kind.AdditionalProperties", "*kind.Enum", "*kind.Pattern",
		"*kind.Minimum", "*kind.MinLength", "*kind.MinItems", "*kind.AnyOf", "*kind.Format",
		"*kind.Maximum", "*kind.MaxLength", "*kind.MaxItems", "*kind.UniqueItems", "*kind.ExclusiveMinimum",
		"*kind.ExclusiveMaximum", "*kind.MultipleOf", "*kind.Not", "*kind.OneOf", "*kind.MinProperties", "*kind.MaxProperties"} {
		if kinds[k] == 0 {
			t.Errorf("no instance had a %s error: the generator does not exercise it", k)
		}
	}
	if invalid < compared/3 || invalid > compared*9/10 {
		t.Errorf("%d of %d instances invalid: the generator does not exercise both sides", invalid, compared)
	}
}

// crdSchema is one CRD version's schema as lint validates with it.
type crdTestSchema struct {
	name  string         // file and version
	doc   map[string]any // crdToJSONSchema's, shared, as decoded from JSON
	plain bool           // plainlyValidCRD's verdict
}

// everyKeywordCRD uses every keyword of the fast subset, those the
// testdata's CRDs do not use too.
const everyKeywordCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: gadgets.example.com}
spec:
  group: example.com
  names: {kind: Gadget, plural: gadgets}
  scope: Namespaced
  versions:
  - name: v1
    served: true
    storage: true
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            required: [name]
            minProperties: 1
            maxProperties: 7
            properties:
              name: {type: string, minLength: 2, maxLength: 5, pattern: '^[a-z]+$'}
              size: {type: integer, minimum: 1, exclusiveMinimum: true, maximum: 10, exclusiveMaximum: true, multipleOf: 3}
              ratio: {type: number, minimum: -1.5, maximum: 2.5, multipleOf: 0.1, nullable: true}
              tags: {type: array, items: {type: string, enum: [a, b, c]}, uniqueItems: true, minItems: 1, maxItems: 3}
              ports: {type: array, items: {type: integer, enum: [80, 443]}, uniqueItems: true, maxItems: 2}
              timeout: {type: string, format: duration}
              host: {type: string, format: hostname}
              since: {type: string, format: date-time}
              quantity: {x-kubernetes-int-or-string: true, pattern: '^[0-9]+m?$'}
              mode:
                type: string
                not: {maxLength: 1}
                allOf: [{minLength: 1}, {maxLength: 8}]
              target:
                type: object
                oneOf: [{required: [host]}, {required: [ip]}]
                properties:
                  host: {type: string}
                  ip: {type: string}
              either:
                type: object
                anyOf: [{required: [a]}, {required: [b]}]
                properties:
                  a: {type: integer}
                  b: {type: integer}
              when: {type: string, format: date-time, enum: ['2024-01-02T03:04:05Z', 'yesterday']}
              main: &box # large enough to be shared: box's anyOf has a $ref
                type: object
                required: [name]
                properties:
                  name: {type: string}
                  image: {type: string}
                  port: {type: integer, minimum: 1}
                  args: {type: array, items: {type: string}}
                  cpu: {type: string}
                  memory: {type: string}
                  user: {type: integer}
              box:
                anyOf: [*box, {type: string}]
              env: {type: object, minProperties: 2, additionalProperties: {type: string}}
              labels:
                type: object
                patternProperties:
                  '^x-': {type: string, maxLength: 3}
                  '^[a-z]+$': {type: string}
                additionalProperties: false
`

// crdSchemasIn finds every CRD version schema in YAML files and txtar
// archives under roots, distinct by content.
func crdSchemasIn(t *testing.T, roots []string) []crdTestSchema {
	t.Helper()
	seen := map[string]bool{}
	var out []crdTestSchema
	add := func(name string, data []byte) {
		for _, s := range crdSchemasOf(t, name, data) {
			if b, _ := appendJSON(nil, s.doc); !seen[string(b)] {
				seen[string(b)] = true
				out = append(out, s)
			}
		}
	}
	for _, root := range roots {
		err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			switch filepath.Ext(path) {
			case ".yaml", ".yml":
				if strings.Contains(string(data), "CustomResourceDefinition") {
					add(path, data)
				}
			case ".txtar":
				for _, f := range txtar.Parse(data).Files {
					if strings.Contains(string(f.Data), "CustomResourceDefinition") {
						add(path+"/"+f.Name, f.Data)
					}
				}
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].name < out[j].name })
	return out
}

// crdSchemasOf is the CRD version schemas in the YAML data.
func crdSchemasOf(t *testing.T, name string, data []byte) []crdTestSchema {
	t.Helper()
	objs, err := manifest.Parse(name, data)
	if err != nil {
		return nil // not all testdata is valid YAML
	}
	var out []crdTestSchema
	for _, o := range objs {
		if o.Kind != "CustomResourceDefinition" {
			continue
		}
		versions, _ := mustGet(o, "spec", "versions").([]any)
		for _, vv := range versions {
			vm, _ := vv.(map[string]any)
			sch, _ := vm["schema"].(map[string]any)
			raw, ok := sch["openAPIV3Schema"].(map[string]any)
			if !ok {
				continue
			}
			b, err := appendJSON(nil, raw)
			if err != nil {
				t.Fatal(err)
			}
			var decoded map[string]any // as crdSchema.decode has it
			if err := json.Unmarshal(b, &decoded); err != nil {
				t.Fatal(err)
			}
			out = append(out, crdTestSchema{
				name:  filepath.ToSlash(name) + " " + strings.TrimSpace(toString(vm["name"])),
				doc:   shareSubschemas(crdToJSONSchema(decoded, true)),
				plain: plainlyValidCRD(raw),
			})
		}
	}
	return out
}

var kindRE = regexp.MustCompile(`\*kind\.\w+`)

func toString(v any) string {
	s, _ := v.(string)
	return s
}

// lint validates a custom resource with the fast validator when
// plainlyValid vouched for its CRD's schema, with jsonschema when it did
// not (a $ref: valid, but not plainly), and still reports a CRD whose
// schema is invalid; the findings are the same either way.
func TestCRDValidatedFast(t *testing.T) {
	objs := parseAll(t,
		testCRD("Plain", "{size: {type: integer, minimum: 1}, name: {type: string, pattern: '^[a-z]+$'}}"),
		testCRD("Ref", "{size: {type: integer, minimum: 1}, name: {type: string, pattern: '^[a-z]+$'}, other: {$ref: '#/properties/spec/properties/size'}}"),
		testCRD("Broken", "{size: {type: integer, minimum: 1}, name: {type: string, pattern: '^(a'}}"),
		"apiVersion: example.com/v1\nkind: Plain\nmetadata: {name: p}\nspec: {size: 0, name: Bad, sise: 1}\n",
		"apiVersion: example.com/v1\nkind: Ref\nmetadata: {name: r}\nspec: {size: 0, name: Bad, sise: 1}\n",
		"apiVersion: example.com/v1\nkind: Broken\nmetadata: {name: b}\nspec: {size: 0}\n")
	l, err := newLinter(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l.crds, err = collectCRDs(objs); err != nil {
		t.Fatal(err)
	}
	var got [3][]string
	for i, o := range objs[3:] {
		fs, err := l.checkObject(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			got[i] = append(got[i], fmt.Sprintf("%d:%d %s %s", f.Line-o.Start().Line, f.Col, f.Rule, f.Message))
		}
		sort.Strings(got[i])
	}
	plain, err := l.crds.versions[crdKey("example.com", "v1", "Plain")].schema.get(l.crdCache)
	if err != nil || plain.fast == nil || plain.schema != nil {
		t.Fatalf("the plainly valid schema: fast %v, jsonschema %v, %v; want fast only", plain.fast != nil, plain.schema != nil, err)
	}
	ref, err := l.crds.versions[crdKey("example.com", "v1", "Ref")].schema.get(l.crdCache)
	if err != nil || ref.fast != nil || ref.schema == nil {
		t.Fatalf("the schema with a $ref: fast %v, jsonschema %v, %v; want jsonschema only", ref.fast != nil, ref.schema != nil, err)
	}
	if len(got[0]) != 3 || !slices.Equal(got[0], got[1]) {
		t.Errorf("findings on the custom resources:\nfast:       %q\njsonschema: %q\nwant the same 3 (minimum, pattern, unknown field)", got[0], got[1])
	}
	if len(got[2]) != 0 {
		t.Errorf("the custom resource of a CRD with an invalid schema: %q, want none (the CRD is reported)", got[2])
	}
	fs, err := l.crds.schemaFindings(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 || !strings.Contains(fs[0].Message, "not a valid schema") || !strings.Contains(fs[0].Message, "^(a") {
		t.Errorf("findings on the CRDs: %v, want the broken pattern of Broken's two versions", fs)
	}
}

// valid, which Validate runs first, allocates nothing on a valid custom
// resource whose fields use no asserted format.
func TestFastValidDoesNotAllocate(t *testing.T) {
	s := crdSchemasOf(t, "every-keyword.yaml", []byte(everyKeywordCRD))[0]
	f := compileFast(s.doc)
	if f == nil {
		t.Fatal("the synthetic CRD is not in the fast subset")
	}
	v := mustJSON(t, `{"apiVersion": "example.com/v1", "kind": "Gadget", "metadata": {"name": "g"}, "spec": {
		"name": "abc", "size": 3, "tags": ["a", "b"], "mode": "on", "target": {"host": "h"}, "either": {"a": 1},
		"labels": {"x-a": "abc", "foo": "bar"}}}`)
	var m map[string]any
	b, _ := json.Marshal(v)
	if err := json.Unmarshal(b, &m); err != nil { // float64 numbers, as manifests have none of json.Number
		t.Fatal(err)
	}
	if err := f.Validate(m); err != nil {
		t.Fatalf("the instance is not valid: %v", err)
	}
	if n := testing.AllocsPerRun(20, func() { f.root.valid(m) }); n != 0 {
		t.Errorf("valid allocated %v times", n)
	}
}
