package mutations

import (
	"fmt"
	"sort"
	"strings"
)

// path is a field path in an object: map keys (string) and list indexes (int).
type path []any

func (p path) String() string {
	var b strings.Builder
	for _, s := range p {
		switch s := s.(type) {
		case int:
			fmt.Fprintf(&b, "[%d]", s)
		default:
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.(string))
		}
	}
	return b.String()
}

// last is the last map key of p ("" when p ends in an index or is empty).
func (p path) last() string {
	for i := len(p) - 1; i >= 0; i-- {
		if s, ok := p[i].(string); ok {
			return s
		}
	}
	return ""
}

// has reports whether p names key anywhere.
func (p path) has(key string) bool {
	for _, s := range p {
		if s == key {
			return true
		}
	}
	return false
}

func (p path) with(s any) path { return append(append(path{}, p...), s) }

// node is one place in an object: its path and value.
type node struct {
	p path
	v any
}

// walk lists every node under v, parents before children, keys in sorted
// order so that generation is deterministic.
func walk(v any, p path, out *[]node) {
	*out = append(*out, node{p, v})
	switch v := v.(type) {
	case map[string]any:
		for _, k := range sortedKeys(v) {
			walk(v[k], p.with(k), out)
		}
	case []any:
		for i, e := range v {
			walk(e, p.with(i), out)
		}
	}
}

// deepCopy copies a decoded JSON value.
func deepCopy(v any) any {
	switch v := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(v))
		for k, e := range v {
			m[k] = deepCopy(e)
		}
		return m
	case []any:
		l := make([]any, len(v))
		for i, e := range v {
			l[i] = deepCopy(e)
		}
		return l
	}
	return v
}

// get returns the value at p in v.
func get(v any, p path) (any, bool) {
	for _, s := range p {
		switch s := s.(type) {
		case string:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			if v, ok = m[s]; !ok {
				return nil, false
			}
		case int:
			l, ok := v.([]any)
			if !ok || s >= len(l) {
				return nil, false
			}
			v = l[s]
		}
	}
	return v, true
}

// edit copies obj and calls f with the parent of p in the copy and p's
// last step; f changes the copy.
func edit(obj map[string]any, p path, f func(parent any, last any)) map[string]any {
	c := deepCopy(obj).(map[string]any)
	parent, _ := get(c, p[:len(p)-1])
	f(parent, p[len(p)-1])
	return c
}

// set returns a copy of obj with the value at p replaced by v.
func set(obj map[string]any, p path, v any) map[string]any {
	return edit(obj, p, func(parent, last any) {
		switch parent := parent.(type) {
		case map[string]any:
			parent[last.(string)] = v
		case []any:
			parent[last.(int)] = v
		}
	})
}

// del returns a copy of obj without the map key at p.
func del(obj map[string]any, p path) map[string]any {
	return edit(obj, p, func(parent, last any) {
		if m, ok := parent.(map[string]any); ok {
			delete(m, last.(string))
		}
	})
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
