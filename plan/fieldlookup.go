package plan

import "strings"

// keyDefaults are the values the apiserver fills in for list keys a
// manifest may leave out: a port without a protocol is the TCP port.
var keyDefaults = map[string]any{"protocol": "TCP"}

// lookupPath follows the steps of a field path into obj (a JSON-like
// object): fields by name, keyed list elements by their keys (a key the
// element leaves out matches its default, see keyDefaults), set elements by
// value, positional elements by index. A field name holding dots (an
// annotation key like "kubeplan.dev/prune") is split by the path's format;
// lookupPath joins the steps back when the map has no shorter key.
func lookupPath(obj any, path []pathSeg) (any, bool) {
	if len(path) == 0 {
		return obj, true
	}
	s := path[0]
	switch {
	case s.keys == nil && !s.hasValue && !s.hasIndex:
		m, ok := obj.(map[string]any)
		if !ok {
			return nil, false
		}
		name := s.field
		for i := 1; ; i++ {
			if v, ok := m[name]; ok {
				if got, ok := lookupPath(v, path[i:]); ok {
					return got, true
				}
			}
			if i >= len(path) || !isField(path[i]) {
				return nil, false
			}
			name += "." + path[i].field
		}
	case s.hasIndex:
		l, ok := obj.([]any)
		if !ok || s.index < 0 || s.index >= len(l) {
			return nil, false
		}
		return lookupPath(l[s.index], path[1:])
	}
	l, ok := obj.([]any)
	if !ok {
		return nil, false
	}
	if e, ok := findElement(l, s); ok {
		return lookupPath(e, path[1:])
	}
	return nil, false
}

func isField(s pathSeg) bool { return s.keys == nil && !s.hasValue && !s.hasIndex }

// findElement finds the element of l a selector step names: one whose keys
// all equal the selector's, preferring an element that sets every key over
// one that leaves a key at its default.
func findElement(l []any, s pathSeg) (any, bool) {
	if s.hasValue || len(s.keys) == 1 && s.keys[0].name == "value" {
		want := s.value
		if !s.hasValue {
			want = s.keys[0].value
		}
		for _, e := range l {
			if _, isMap := e.(map[string]any); !isMap && sameScalar(e, want) {
				return e, true
			}
		}
		if s.hasValue {
			return nil, false
		}
	}
	for _, defaults := range []bool{false, true} {
		for _, e := range l {
			if m, ok := e.(map[string]any); ok && keysMatch(m, s.keys, defaults) {
				return e, true
			}
		}
	}
	return nil, false
}

func keysMatch(m map[string]any, keys []pathKey, defaults bool) bool {
	for _, k := range keys {
		v, ok := m[k.name]
		if !ok && defaults {
			v, ok = keyDefaults[k.name]
		}
		if !ok || !sameScalar(v, k.value) {
			return false
		}
	}
	return true
}

// sameScalar compares a value from an object (int, int64, float64 from
// JSON or YAML) with one from a path.
func sameScalar(a, b any) bool {
	if fa, ok := number(a); ok {
		fb, ok := number(b)
		return ok && fa == fb
	}
	switch a := a.(type) {
	case string:
		b, ok := b.(string)
		return ok && a == b
	case bool:
		b, ok := b.(bool)
		return ok && a == b
	case nil:
		return b == nil
	}
	return false
}

func number(v any) (float64, bool) {
	switch n := v.(type) {
	case int:
		return float64(n), true
	case int32:
		return float64(n), true
	case int64:
		return float64(n), true
	case float64:
		return n, true
	}
	return 0, false
}

// topField is the first field of a path ("data" for ".data.password").
func topField(path []pathSeg) string {
	if len(path) == 0 || !isField(path[0]) {
		return ""
	}
	return strings.SplitN(path[0].field, ".", 2)[0]
}
