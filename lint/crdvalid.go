package lint

import (
	"math"
	"regexp"
)

// plainlyValid reports whether doc, a JSON schema crdToJSONSchema made of a
// CRD's openAPIV3Schema, is sure to compile: every keyword of draft 4 in
// it is one of those structural schemas use, with a value the draft 4
// metaschema accepts and that compileSchema cannot reject (patterns that
// compile). It is a sufficient test, not a necessary one: a schema with
// anything else ($ref, definitions, id, dependencies, an items array, an
// enum of objects) is not plainly valid and is compiled to be sure, and so
// is every invalid one, whose error a finding quotes. Unknown keywords
// (x-kubernetes-*) are ignored by the metaschema and the compiler alike.
//
// It runs when a CRD is read (crdDrafts), on the schema as decoded from
// YAML, so that crdSchema.check need not even decode, let alone share and
// compile, the schemas of CRDs no custom resource uses: in a rendered
// platform most of them. Numbers are taken as JSON has them (number).
func plainlyValid(doc map[string]any) bool {
	for k, v := range doc {
		if !plainKeyword(k, v, doc) {
			return false
		}
	}
	return true
}

func plainKeyword(k string, v any, node map[string]any) bool {
	switch k {
	case "properties", "patternProperties":
		props, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for name, sub := range props {
			m, ok := sub.(map[string]any)
			if !ok || !plainlyValid(m) {
				return false
			}
			if k == "patternProperties" && !compiles(name) {
				return false
			}
		}
		return true
	case "items", "not":
		m, ok := v.(map[string]any)
		return ok && plainlyValid(m)
	case "additionalProperties":
		if _, ok := v.(bool); ok {
			return true
		}
		m, ok := v.(map[string]any)
		return ok && plainlyValid(m)
	case "allOf", "anyOf", "oneOf":
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return false
		}
		for _, it := range list {
			m, ok := it.(map[string]any)
			if !ok || !plainlyValid(m) {
				return false
			}
		}
		return true
	case "type":
		if s, ok := v.(string); ok {
			return simpleType(s)
		}
		return uniqueStrings(v, simpleType)
	case "required":
		return uniqueStrings(v, func(string) bool { return true })
	case "enum":
		list, ok := v.([]any)
		if !ok || len(list) == 0 {
			return false
		}
		seen := map[any]bool{}
		for _, it := range list {
			if f, ok := number(it); ok {
				it = f // 1 and 1.0 are one value in JSON
			}
			switch it.(type) {
			case string, float64, bool, nil:
			default:
				return false // objects and arrays: let the compiler judge
			}
			if seen[it] {
				return false
			}
			seen[it] = true
		}
		return true
	case "pattern":
		s, ok := v.(string)
		return ok && compiles(s)
	case "format", "title", "description":
		_, ok := v.(string)
		return ok
	case "default":
		return true
	case "uniqueItems":
		_, ok := v.(bool)
		return ok
	case "minimum", "maximum":
		_, ok := number(v)
		return ok
	case "exclusiveMinimum", "exclusiveMaximum":
		_, ok := v.(bool)
		_, bound := node[exclusiveBound[k]] // draft 4: exclusiveMinimum depends on minimum
		return ok && bound
	case "multipleOf":
		f, ok := number(v)
		return ok && f > 0
	case "minLength", "maxLength", "minItems", "maxItems", "minProperties", "maxProperties":
		f, ok := number(v)
		return ok && f >= 0 && f == math.Trunc(f) && f <= 1<<53
	case "id", "$schema", "$ref", "definitions", "dependencies", "additionalItems",
		"$id", "$defs", "$anchor", "$dynamicRef", "$dynamicAnchor", "$recursiveRef", "$recursiveAnchor", "$vocabulary", "$comment",
		"const", "contains", "propertyNames", "if", "then", "else", "examples", "readOnly", "writeOnly",
		"dependentSchemas", "dependentRequired", "prefixItems", "unevaluatedItems", "unevaluatedProperties",
		"minContains", "maxContains", "contentEncoding", "contentMediaType", "contentSchema", "deprecated":
		return false // draft 4's or later drafts' keywords structural schemas do not use: compile
	}
	return true // not a keyword
}

// number is v as the float64 JSON makes of it: the schema is checked as
// read from YAML (ints) and compiled from JSON (float64s).
func number(v any) (float64, bool) {
	switch n := v.(type) {
	case float64:
		return n, true
	case int:
		return float64(n), true
	case int64:
		return float64(n), true
	case uint64:
		return float64(n), true
	}
	return 0, false
}

var exclusiveBound = map[string]string{"exclusiveMinimum": "minimum", "exclusiveMaximum": "maximum"}

func simpleType(s string) bool {
	switch s {
	case "array", "boolean", "integer", "null", "number", "object", "string":
		return true
	}
	return false
}

// compiles reports whether s is a pattern compileSchema accepts (it uses
// Go's regexp, as the validator's default engine does).
func compiles(s string) bool {
	_, err := regexp.Compile(s)
	return err == nil
}

// plainlyValidCRD is plainlyValid(crdToJSONSchema(s, true)) without making
// the converted copy: it judges each node of the openAPIV3Schema s as
// crdToJSONSchema would convert it. What the conversion adds (apiVersion,
// kind and metadata properties, additionalProperties false, the anyOf of
// an int-or-string) is plainly valid; what it drops is not judged.
func plainlyValidCRD(s map[string]any) bool {
	return plainNode(s)
}

func plainNode(s map[string]any) bool {
	ios, _ := s["x-kubernetes-int-or-string"].(bool)
	nullable, _ := s["nullable"].(bool)
	for k, v := range s {
		switch k {
		case "nullable", "x-kubernetes-validations", "description", "example", "externalDocs":
			continue // dropped
		case "properties", "patternProperties":
			props, _ := v.(map[string]any) // a non-map becomes {}
			for name, sub := range props {
				m, ok := sub.(map[string]any)
				if !ok {
					continue // dropped
				}
				if !plainNode(m) || (k == "patternProperties" && !compiles(name)) {
					return false
				}
			}
		case "items", "additionalProperties", "not":
			if m, ok := v.(map[string]any); ok {
				if !plainNode(m) {
					return false
				}
			} else if !plainKeyword(k, v, s) {
				return false
			}
		case "allOf", "anyOf", "oneOf":
			list, _ := v.([]any)
			n := 0
			for _, it := range list {
				m, ok := it.(map[string]any)
				if !ok {
					continue // dropped
				}
				n++
				if !plainNode(m) {
					return false
				}
			}
			if n == 0 {
				return false
			}
		case "type":
			if ios {
				continue // dropped for the anyOf
			}
			if t, ok := v.(string); ok && nullable {
				if !simpleType(t) || t == "null" { // becomes [t, "null"]
					return false
				}
			} else if !plainKeyword(k, v, s) {
				return false
			}
		default:
			if !plainKeyword(k, v, s) {
				return false
			}
		}
	}
	return true
}

// uniqueStrings says that v is a non-empty list of distinct strings, each
// of which ok accepts.
func uniqueStrings(v any, ok func(string) bool) bool {
	list, isList := v.([]any)
	if !isList || len(list) == 0 {
		return false
	}
	seen := map[string]bool{}
	for _, it := range list {
		s, isString := it.(string)
		if !isString || !ok(s) || seen[s] {
			return false
		}
		seen[s] = true
	}
	return true
}
