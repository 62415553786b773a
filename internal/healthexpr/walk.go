package healthexpr

import (
	"slices"

	celast "github.com/google/cel-go/common/ast"
	celtypes "github.com/google/cel-go/common/types"
)

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
	s, ok := e.AsLiteral().(celtypes.String)
	return string(s), ok
}
