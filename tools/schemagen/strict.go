package main

import (
	"fmt"
	"sort"
	"strings"
)

const (
	specRefPrefix  = "#/components/schemas/"
	localRefPrefix = "#/definitions/"
)

// keptKeywords are copied unchanged from the spec. Everything not listed here
// and not handled structurally in convert (descriptions, defaults, examples,
// patch and list-type extensions) is dropped: it does not validate anything.
var keptKeywords = map[string]bool{
	"type": true, "format": true, "required": true, "enum": true, "pattern": true,
	"minimum": true, "maximum": true, "exclusiveMinimum": true, "exclusiveMaximum": true,
	"multipleOf": true, "minLength": true, "maxLength": true, "minItems": true,
	"maxItems": true, "uniqueItems": true, "minProperties": true, "maxProperties": true,
	"x-kubernetes-preserve-unknown-fields": true,
	"x-kubernetes-int-or-string":           true,
	"x-kubernetes-embedded-resource":       true,
}

// standalone returns the strict, self-contained JSON Schema of component
// root: the root schema itself (not nullable) plus a "definitions" section
// holding every component it reaches, referenced as "#/definitions/<name>".
// Components are never inlined, so recursive types (JSONSchemaProps) work.
func standalone(defs map[string]map[string]any, root string) (map[string]any, error) {
	def, ok := defs[root]
	if !ok {
		return nil, fmt.Errorf("no component %s", root)
	}
	c := &converter{refs: map[string]bool{}}
	out := c.convert(def, false)
	if c.err != nil {
		return nil, fmt.Errorf("%s: %v", root, c.err)
	}
	if k, ok := def[gvkExtension]; ok {
		out[gvkExtension] = k
	}

	definitions := map[string]any{}
	for len(c.refs) > 0 {
		names := make([]string, 0, len(c.refs))
		for n := range c.refs {
			names = append(names, n)
		}
		sort.Strings(names)
		c.refs = map[string]bool{}
		for _, n := range names {
			if _, done := definitions[n]; done {
				continue
			}
			d, ok := defs[n]
			if !ok {
				return nil, fmt.Errorf("%s: reference to missing component %s", root, n)
			}
			definitions[n] = c.convert(d, true)
			if c.err != nil {
				return nil, fmt.Errorf("%s: %s: %v", root, n, c.err)
			}
		}
	}
	if len(definitions) > 0 {
		out["definitions"] = definitions
	}
	return out, nil
}

type converter struct {
	refs map[string]bool // components referenced and not yet converted
	err  error
}

// convert turns one spec schema into a strict one:
//   - "$ref"s point into the local definitions section;
//   - allOf:[{$ref}] wrappers (how OpenAPI v3 attaches a description or
//     default to a reference) collapse to the reference;
//   - objects with properties and neither additionalProperties nor
//     x-kubernetes-preserve-unknown-fields get additionalProperties: false;
//   - when nullable, "type" also admits null, and a oneOf/anyOf of plain
//     alternatives (IntOrString, Quantity) gains a {"type":"null"} branch,
//     because the API server accepts an explicit null for optional fields.
//
// Branches of oneOf/anyOf/not are converted without null so that a null value
// cannot match two oneOf branches.
func (c *converter) convert(in map[string]any, nullable bool) map[string]any {
	out := map[string]any{}
	for k, v := range in {
		switch k {
		case "$ref":
			ref, _ := v.(string)
			name, ok := strings.CutPrefix(ref, specRefPrefix)
			if !ok {
				c.fail(fmt.Errorf("unsupported $ref %q", ref))
				continue
			}
			c.refs[name] = true
			out[k] = localRefPrefix + name
		case "properties":
			props := map[string]any{}
			for name, p := range c.objects(k, v) {
				props[name] = c.convert(p, true)
			}
			out[k] = props
		case "additionalProperties", "items":
			switch v := v.(type) {
			case bool:
				out[k] = v
			case map[string]any:
				out[k] = c.convert(v, true)
			case []any: // draft 4 tuple items
				out[k] = c.list(k, v, true)
			default:
				c.fail(fmt.Errorf("unsupported %s %T", k, v))
			}
		case "allOf", "anyOf", "oneOf":
			list, _ := v.([]any)
			out[k] = c.list(k, list, false)
		case "not":
			if m, ok := v.(map[string]any); ok {
				out[k] = c.convert(m, false)
			}
		default:
			if keptKeywords[k] {
				out[k] = v
			}
		}
	}

	// allOf:[{$ref}] with nothing else left -> {$ref}.
	if all, ok := out["allOf"].([]any); ok && len(all) == 1 && len(out) == 1 {
		if m, ok := all[0].(map[string]any); ok && len(m) == 1 && m["$ref"] != nil {
			out = m
		}
	}

	preserve, _ := out["x-kubernetes-preserve-unknown-fields"].(bool)
	if _, hasProps := out["properties"]; hasProps && !preserve {
		if _, set := out["additionalProperties"]; !set {
			out["additionalProperties"] = false
		}
	}

	if nullable {
		makeNullable(out)
	}
	return out
}

func makeNullable(s map[string]any) {
	switch t := s["type"].(type) {
	case string:
		if t != "null" {
			s["type"] = []any{t, "null"}
		}
		return
	case []any:
		for _, x := range t {
			if x == "null" {
				return
			}
		}
		s["type"] = append(append([]any{}, t...), "null")
		return
	}
	// No type: a oneOf/anyOf of alternatives that cannot themselves be null
	// gets an explicit null alternative. References are left alone: the
	// definitions they point to are nullable already.
	for _, k := range []string{"oneOf", "anyOf"} {
		alts, ok := s[k].([]any)
		if !ok {
			continue
		}
		for _, a := range alts {
			if m, ok := a.(map[string]any); !ok || m["$ref"] != nil || m["type"] == nil {
				return
			}
		}
		s[k] = append(alts, map[string]any{"type": "null"})
	}
}

func (c *converter) list(k string, in []any, nullable bool) []any {
	out := make([]any, 0, len(in))
	for _, x := range in {
		m, ok := x.(map[string]any)
		if !ok {
			c.fail(fmt.Errorf("%s entry %T is not a schema", k, x))
			continue
		}
		out = append(out, c.convert(m, nullable))
	}
	return out
}

func (c *converter) objects(k string, v any) map[string]map[string]any {
	m, ok := v.(map[string]any)
	if !ok {
		c.fail(fmt.Errorf("%s is %T, not an object", k, v))
		return nil
	}
	out := make(map[string]map[string]any, len(m))
	for name, x := range m {
		s, ok := x.(map[string]any)
		if !ok {
			c.fail(fmt.Errorf("%s.%s is %T, not a schema", k, name, x))
			continue
		}
		out[name] = s
	}
	return out
}

func (c *converter) fail(err error) {
	if c.err == nil {
		c.err = err
	}
}
