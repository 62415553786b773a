package healthexpr

import (
	"errors"
	"fmt"
	"slices"
	"sort"
	"strings"

	celast "github.com/google/cel-go/common/ast"
	"github.com/google/cel-go/common/types"
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

// selected is a field path an expression selects, and the node that does.
type selected struct {
	path []string
	id   int64
	skip int // characters from the node's position to the field's name: the '.' of .f, the '.?' of .?f
}

// walker collects the field paths under spec and status an expression
// selects: through fields, optional fields (.?f), constant indexes, and
// the variables of macros over lists (status.conditions.exists(c,
// c.type...) selects status.conditions[].type).
type walker struct{ selects []selected }

// walk returns the path e stands for (nil when it is not a field of the
// object) and records every selection under it.
func (w *walker) walk(e celast.Expr, vars map[string][]string) []string {
	switch e.Kind() {
	case celast.IdentKind:
		name := e.AsIdent()
		if p, ok := vars[name]; ok {
			return p
		}
		if name == "spec" || name == "status" {
			return []string{name}
		}
	case celast.SelectKind:
		s := e.AsSelect()
		return w.add(w.walk(s.Operand(), vars), s.FieldName(), e.ID(), 1)
	case celast.CallKind:
		return w.call(e, vars)
	case celast.ComprehensionKind:
		return w.comprehension(e, vars)
	case celast.ListKind:
		for _, el := range e.AsList().Elements() {
			w.walk(el, vars)
		}
	case celast.MapKind:
		for _, en := range e.AsMap().Entries() {
			m := en.AsMapEntry()
			w.walk(m.Key(), vars)
			w.walk(m.Value(), vars)
		}
	}
	return nil
}

// add records path p + name, selected at id; nil p is nothing.
func (w *walker) add(p []string, name string, id int64, skip int) []string {
	if p == nil {
		return nil
	}
	q := append(slices.Clone(p), name)
	w.selects = append(w.selects, selected{q, id, skip})
	return q
}

func (w *walker) call(e celast.Expr, vars map[string][]string) []string {
	call := e.AsCall()
	var target []string
	if call.IsMemberFunction() {
		target = w.walk(call.Target(), vars)
	}
	args := call.Args()
	paths := make([][]string, len(args))
	for i, a := range args {
		paths[i] = w.walk(a, vars)
	}
	switch name := call.FunctionName(); {
	case (name == "_?._" || name == "_[_]" || name == "_[?_]") && len(args) == 2:
		if lit, ok := literalString(args[1]); ok {
			skip := 2 // .?f
			if name != "_?._" {
				skip = 0 // ['f']: the bracket
			}
			return w.add(paths[0], lit, e.ID(), skip)
		}
		if paths[0] != nil {
			return append(slices.Clone(paths[0]), item)
		}
	case call.IsMemberFunction() && (name == "orValue" || name == "value"):
		return target
	}
	return nil
}

func (w *walker) comprehension(e celast.Expr, vars map[string][]string) []string {
	c := e.AsComprehension()
	r := w.walk(c.IterRange(), vars)
	inner := vars
	if r != nil {
		inner = map[string][]string{}
		for k, v := range vars {
			inner[k] = v
		}
		el := append(slices.Clone(r), item)
		if c.HasIterVar2() {
			inner[c.IterVar2()] = el
			delete(inner, c.IterVar())
		} else {
			inner[c.IterVar()] = el
		}
	}
	w.walk(c.AccuInit(), vars)
	w.walk(c.LoopCondition(), inner)
	w.walk(c.LoopStep(), inner)
	w.walk(c.Result(), inner)
	if r != nil && isFilter(c) {
		return r
	}
	return nil
}

// isFilter reports whether c is the filter macro: its step keeps the
// element itself (cond ? accu + [x] : accu), so its result is a list of
// the range's elements.
func isFilter(c celast.ComprehensionExpr) bool {
	step := c.LoopStep()
	if step.Kind() != celast.CallKind || step.AsCall().FunctionName() != "_?_:_" || len(step.AsCall().Args()) != 3 {
		return false
	}
	add := step.AsCall().Args()[1]
	if add.Kind() != celast.CallKind || add.AsCall().FunctionName() != "_+_" || len(add.AsCall().Args()) != 2 {
		return false
	}
	l := add.AsCall().Args()[1]
	if l.Kind() != celast.ListKind || l.AsList().Size() != 1 {
		return false
	}
	x := l.AsList().Elements()[0]
	return x.Kind() == celast.IdentKind && x.AsIdent() == c.IterVar()
}

func literalString(e celast.Expr) (string, bool) {
	if e.Kind() != celast.LiteralKind {
		return "", false
	}
	s, ok := e.AsLiteral().(types.String)
	return string(s), ok
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
