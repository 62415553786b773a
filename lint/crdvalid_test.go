package lint

import (
	"encoding/json"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// plainlyValid, run on the openAPIV3Schema as YAML decodes it, never
// accepts a schema that does not compile (from JSON, as crdSchema compiles
// it), and accepts what CRDs are made of.
func TestPlainlyValidIsSound(t *testing.T) {
	for _, c := range []struct {
		name, schema    string
		plain, compiles bool
	}{
		{"structural", `{type: object, required: [spec], properties: {spec: {type: object, description: d,
			x-kubernetes-validations: [{rule: "self.a > 0"}], properties: {
			a: {type: integer, minimum: 0, maximum: 10, exclusiveMaximum: true, multipleOf: 2, default: 2},
			b: {type: string, pattern: "^[a-z]+$", enum: [x, y], maxLength: 63, format: date-time, nullable: true},
			c: {x-kubernetes-int-or-string: true, anyOf: [{type: integer}, {type: string}]},
			d: {type: array, items: {type: object, properties: {k: {type: string}}}, x-kubernetes-list-type: map, x-kubernetes-list-map-keys: [k], minItems: 1, uniqueItems: false},
			e: {type: object, additionalProperties: {type: string}, maxProperties: 5},
			f: {type: object, x-kubernetes-preserve-unknown-fields: true},
			g: {type: object, x-kubernetes-embedded-resource: true, x-kubernetes-preserve-unknown-fields: true},
			h: {type: number, enum: [1, 2.5]},
			i: {oneOf: [{required: [a]}, {required: [b]}], not: {required: [c]}, allOf: [{type: object}]}}}}}`, true, true},
		{"unknown type", `{type: object, properties: {a: {type: strnig}}}`, false, false},
		{"bad pattern", `{type: object, properties: {a: {type: string, pattern: "("}}}`, false, false},
		{"bad pattern property", `{type: object, patternProperties: {"(": {type: string}}}`, false, false},
		{"empty required", `{type: object, required: [], properties: {a: {type: string}}}`, false, false},
		{"repeated required", `{type: object, required: [a, a], properties: {a: {type: string}}}`, false, false},
		{"enum repeats a number", `{type: object, properties: {a: {type: number, enum: [1, 1.0]}}}`, false, false},
		{"empty enum", `{type: object, properties: {a: {type: string, enum: []}}}`, false, false},
		{"exclusive bound alone", `{type: object, properties: {a: {type: integer, exclusiveMinimum: true}}}`, false, false},
		{"negative length", `{type: object, properties: {a: {type: string, maxLength: -1}}}`, false, false},
		{"fractional length", `{type: object, properties: {a: {type: string, minLength: 1.5}}}`, false, false},
		{"zero multipleOf", `{type: object, properties: {a: {type: integer, multipleOf: 0}}}`, false, false},
		{"nullable null", `{type: object, properties: {a: {type: "null", nullable: true}}}`, false, false},
		{"dangling ref", `{type: object, properties: {a: {$ref: "#/definitions/nope"}}}`, false, false},
		{"enum of objects", `{type: object, properties: {a: {type: object, enum: [{k: 1}]}}}`, false, true},
		{"items array", `{type: object, properties: {a: {type: array, items: [{type: string}]}}}`, false, true},
		{"nullable string", `{type: object, properties: {a: {type: string, nullable: true}}}`, true, true},
		{"nullable list type", `{type: object, properties: {a: {type: [string, "null"], nullable: true}}}`, true, true},
		{"int-or-string with a bad type", `{type: object, properties: {a: {x-kubernetes-int-or-string: true, type: strnig}}}`, true, true},
		{"non-map property", `{type: object, properties: {a: 1, b: {type: string}}}`, true, true},
		{"properties not a map", `{type: object, properties: [a]}`, true, true},
		{"anyOf of no schema", `{type: object, properties: {a: {anyOf: [1, 2]}}}`, false, false},
		{"additionalProperties string", `{type: object, additionalProperties: "no"}`, false, false},
		{"embedded without properties", `{type: object, properties: {a: {type: object, x-kubernetes-embedded-resource: true}}}`, true, true},
		{"string minimum", `{type: object, properties: {a: {type: integer, minimum: "1"}}}`, false, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			var fromYAML map[string]any
			if err := yaml.Unmarshal([]byte(c.schema), &fromYAML); err != nil {
				t.Fatal(err)
			}
			plain := plainlyValid(crdToJSONSchema(fromYAML, true))
			if direct := plainlyValidCRD(fromYAML); direct != plain {
				t.Errorf("plainlyValidCRD = %v, plainlyValid of the converted schema = %v", direct, plain)
			}
			b, err := json.Marshal(fromYAML)
			if err != nil {
				t.Fatal(err)
			}
			var fromJSON map[string]any
			if err := json.Unmarshal(b, &fromJSON); err != nil {
				t.Fatal(err)
			}
			_, err = compileSchema("mem:///test.json", shareSubschemas(crdToJSONSchema(fromJSON, true)))
			if plain && err != nil {
				t.Fatalf("plainly valid, but it does not compile: %v", err)
			}
			if plain != c.plain || (err == nil) != c.compiles {
				t.Errorf("plainly valid %v, compiles %v (%v); want %v, %v", plain, err == nil, err, c.plain, c.compiles)
			}
		})
	}
}

// The valid schema of a CRD no custom resource uses is checked without
// compiling it; an invalid one is compiled, for its error.
func TestUnusedValidSchemaNotCompiled(t *testing.T) {
	objs := parseAll(t,
		testCRD("Fine", "{size: {type: integer}}"),
		testCRD("Broken", "{size: {type: integer}, other: {type: strnig}}"))
	cs, err := collectCRDs(objs)
	if err != nil {
		t.Fatal(err)
	}
	fs, err := cs.schemaFindings(nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(fs) != 2 { // both versions of Broken
		t.Errorf("%d findings, want 2: %v", len(fs), fs)
	}
	fine := cs.versions[crdKey("example.com", "v1", "Fine")].schema
	broken := cs.versions[crdKey("example.com", "v1", "Broken")].schema
	if fine.compiles.Load() != 0 || fine.plain.Load() != 1 || fine.checkErr() != nil {
		t.Errorf("valid unused schema: %d compiles, %d plain checks, error %v; want 0, 1, nil", fine.compiles.Load(), fine.plain.Load(), fine.checkErr())
	}
	if broken.compiles.Load() != 1 || broken.checkErr() == nil {
		t.Errorf("invalid unused schema: %d compiles, error %v; want 1 and its error", broken.compiles.Load(), broken.checkErr())
	}
}
