package semantic

import (
	"strings"
)

// labelMap checks the label keys and values of a map at path (a pod
// template's labels, a node selector, a selector's matchLabels).
func (s *sem) labelMap(path []string) {
	m := s.m(path)
	for _, k := range sortedKeys(m) {
		for _, msg := range QualifiedName(k) {
			s.badKey(s.at(path, k), "Invalid value: %q: label key %s", k, msg)
		}
		if v, ok := m[k].(string); ok {
			for _, msg := range LabelValue(v) {
				s.bad(s.at(path, k), "Invalid value: %q: label value %s", v, msg)
			}
		}
	}
}

// annotations checks annotation keys (case does not matter in them).
func (s *sem) annotations(path []string) {
	for _, k := range sortedKeys(s.m(path)) {
		for _, msg := range QualifiedName(strings.ToLower(k)) {
			s.badKey(s.at(path, k), "Invalid value: %q: annotation key %s", k, msg)
		}
	}
}

// selector is a parsed label selector; nil matches nothing known.
type selector struct {
	labels map[string]string
	exprs  []selectorExpr
}

type selectorExpr struct {
	key, op string
	values  []string
}

// matches reports whether the selector selects labels.
func (sel *selector) matches(labels map[string]any) bool {
	for k, v := range sel.labels {
		if lv, ok := labels[k].(string); !ok || lv != v {
			return false
		}
	}
	for _, e := range sel.exprs {
		lv, has := labels[e.key].(string)
		in := false
		for _, v := range e.values {
			if has && v == lv {
				in = true
			}
		}
		switch e.op {
		case "In":
			if !in {
				return false
			}
		case "NotIn":
			if in {
				return false
			}
		case "Exists":
			if !has {
				return false
			}
		case "DoesNotExist":
			if has {
				return false
			}
		}
	}
	return true
}

// empty reports a selector that selects everything.
func (sel *selector) empty() bool { return len(sel.labels) == 0 && len(sel.exprs) == 0 }

// labelSelector checks a LabelSelector (matchLabels; matchExpressions'
// keys, operators and values) and returns it, or nil when it is missing or
// cannot be read.
func (s *sem) labelSelector(path []string) *selector {
	m := s.m(path)
	if m == nil {
		return nil
	}
	sel := &selector{labels: map[string]string{}}
	s.labelMap(s.at(path, "matchLabels"))
	for k, v := range s.m(s.at(path, "matchLabels")) {
		vs, ok := v.(string)
		if !ok {
			return nil
		}
		sel.labels[k] = vs
	}
	ok := true
	s.items(s.at(path, "matchExpressions"), func(e []string, em map[string]any) {
		key, _ := em["key"].(string)
		op, _ := em["operator"].(string)
		var values []string
		for _, v := range listOf(em["values"]) {
			vs, _ := v.(string)
			values = append(values, vs)
		}
		if key == "" {
			s.required(s.at(e, "key"), "the label key to test")
		} else {
			s.msgs(s.at(e, "key"), key, QualifiedName(key))
		}
		switch op {
		case "In", "NotIn":
			if len(values) == 0 {
				s.bad(s.at(e, "values"), "Required value: must be specified when `operator` is 'In' or 'NotIn'")
			}
		case "Exists", "DoesNotExist":
			if len(values) > 0 {
				s.bad(s.at(e, "values"), "Forbidden: may not be specified when `operator` is 'Exists' or 'DoesNotExist'")
			}
		case "":
			s.required(s.at(e, "operator"), "In, NotIn, Exists or DoesNotExist")
			ok = false
		default:
			s.bad(s.at(e, "operator"), "Unsupported value: %q: supported values: \"In\", \"NotIn\", \"Exists\", \"DoesNotExist\"", op)
			ok = false
		}
		for i, v := range values {
			s.msgs(s.at(e, "values", idx(i)), v, LabelValue(v))
		}
		sel.exprs = append(sel.exprs, selectorExpr{key: key, op: op, values: values})
	})
	if !ok {
		return nil
	}
	return sel
}

func listOf(v any) []any {
	l, _ := v.([]any)
	return l
}

// selectorMatchesTemplate checks a controller's selector: present, not
// empty, and selecting its pod template's labels.
func (s *sem) selectorMatchesTemplate(selPath, tmplPath []string, kind string) {
	if !s.has(selPath) {
		return // the schema (or defaulting) answers for a missing selector
	}
	sel := s.labelSelector(selPath)
	if sel == nil {
		return
	}
	if sel.empty() {
		s.bad(selPath, "Invalid value: {}: empty selector is invalid for %s; select the pod template's labels", strings.ToLower(kind))
		return
	}
	labelsPath := s.at(tmplPath, "metadata", "labels")
	labels := s.m(labelsPath)
	if !sel.matches(labels) {
		where := labelsPath
		for _, k := range sortedKeys(sel.labels) {
			if v, ok := labels[k].(string); ok && v != sel.labels[k] {
				where = s.at(labelsPath, k) // the label whose value differs
				break
			}
		}
		if !s.has(where) {
			where = tmplPath
		}
		s.out = append(s.out, Violation{Path: where,
			Message: FieldPath(labelsPath) + ": Invalid value: `selector` does not match template `labels`; give the template the labels " + FieldPath(selPath) + " selects"})
	}
}
