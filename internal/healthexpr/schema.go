package healthexpr

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	celast "github.com/google/cel-go/common/ast"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// item stands, in a field path, for an element of a list (or a value of
// a map): status.conditions[].type.
const item = "[]"

// CheckCRDs checks the fields the user's rules select against the schema
// of their kind's CustomResourceDefinition among crds (objects as read,
// apiextensions.k8s.io/v1): a field the schema does not have, in every
// version, is an error at the expression's file:line:col naming the field
// and those the schema has there (status.condtions is a typo the rule
// would wait on until the timeout). Fields under metadata, and under a
// schema that keeps unknown fields, are not checked; a rule whose kind has
// no CRD among crds is not either. Built-in rules are not checked.
func (s *Set) CheckCRDs(crds []map[string]any) error {
	if s == nil {
		return nil
	}
	byGK := map[schema.GroupKind][]map[string]any{}
	for _, crd := range crds {
		group, _ := field(crd, "spec", "group").(string)
		kind, _ := field(crd, "spec", "names", "kind").(string)
		versions, _ := field(crd, "spec", "versions").([]any)
		for _, v := range versions {
			if sch, ok := field(v, "schema", "openAPIV3Schema").(map[string]any); ok {
				gk := schema.GroupKind{Group: group, Kind: kind}
				byGK[gk] = append(byGK[gk], sch)
			}
		}
	}
	var gks []schema.GroupKind
	for gk := range s.byKind {
		gks = append(gks, gk)
	}
	sort.Slice(gks, func(i, j int) bool { return gks[i].String() < gks[j].String() })
	var errs []error
	for _, gk := range gks {
		c := s.byKind[gk]
		if c.Rule.name != "" || len(byGK[gk]) == 0 {
			continue
		}
		for _, key := range keys {
			if a := c.asts[key]; a != nil {
				errs = append(errs, c.checkFields(key, a.NativeRep(), byGK[gk])...)
			}
		}
	}
	return errors.Join(errs...)
}

// checkFields checks the paths expression key selects against schemas,
// one per version of the CRD.
func (c *Compiled) checkFields(key string, a *celast.AST, schemas []map[string]any) []error {
	w := &walker{}
	w.walk(a.Expr(), nil)
	var errs []error
	seen := map[string]bool{}
	for _, sel := range w.selects {
		msg := ""
		for i, sch := range schemas {
			m := unknownField(sch, sel.path)
			if m == "" {
				msg = ""
				break
			}
			if i == 0 {
				msg = m
			}
		}
		if msg == "" || seen[msg] {
			continue
		}
		seen[msg] = true
		loc := a.SourceInfo().GetStartLocation(sel.id)
		errs = append(errs, fmt.Errorf("%s: health rule %s: %s: %s: fix the field name (the CRD's schema says what the object has)",
			c.Rule.exprPos(key, loc.Line(), loc.Column()+sel.skip), gkString(c.Rule.GroupKind()), key, msg))
	}
	return errs
}

// unknownField is why path is not in the object schema sch ("" when it
// is, or cannot be known): "status.condtions: no such field; status has
// conditions, notAfter".
func unknownField(sch map[string]any, path []string) string {
	node := sch
	for i, seg := range path {
		if node == nil || node["x-kubernetes-preserve-unknown-fields"] == true {
			return ""
		}
		if seg == item {
			switch {
			case node["items"] != nil:
				node, _ = node["items"].(map[string]any)
			default:
				node, _ = node["additionalProperties"].(map[string]any)
			}
			continue
		}
		props, _ := node["properties"].(map[string]any)
		if next, ok := props[seg].(map[string]any); ok {
			node = next
			continue
		}
		if ap, ok := node["additionalProperties"]; ok && ap != false {
			node, _ = ap.(map[string]any)
			continue
		}
		if props == nil {
			return ""
		}
		names := make([]string, 0, len(props))
		for n := range props {
			names = append(names, n)
		}
		sort.Strings(names)
		where := "the object"
		if i > 0 {
			where = strings.ReplaceAll(strings.Join(path[:i], "."), "."+item, item)
		}
		return fmt.Sprintf("%s: no such field in the CRD's schema; %s has %s",
			strings.ReplaceAll(strings.Join(path[:i+1], "."), "."+item, item), where, strings.Join(names, ", "))
	}
	return ""
}

// field is the value at path in a map of maps, nil when missing.
func field(v any, path ...string) any {
	for _, p := range path {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[p]
	}
	return v
}
