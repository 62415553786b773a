package mutations

import (
	"strings"
)

// unknownFields adds, to every mapping, a field no schema has, a field
// named like a sibling but capitalized, and a field with a typo.
func unknownFields(g *gen) {
	for _, n := range g.nodes {
		m, ok := n.v.(map[string]any)
		if !ok {
			continue
		}
		names := []string{"unknownField"}
		if keys := sortedKeys(m); len(keys) > 0 {
			k := keys[0]
			names = append(names, strings.ToUpper(k[:1])+k[1:], k+"_")
		}
		for _, name := range names {
			if _, taken := m[name]; taken {
				continue
			}
			p := n.p.with(name)
			g.add(UnknownField, p, "added "+name, set(g.base, p, "x"))
		}
	}
}

// wrongTypes replaces every value with values of other JSON types.
func wrongTypes(g *gen) {
	for _, n := range g.nodes {
		if len(n.p) == 0 || fixed(n.p) {
			continue
		}
		var alts []any
		switch n.v.(type) {
		case string:
			alts = []any{int64(42), true, []any{"x"}}
		case int64, float64, int:
			alts = []any{"not a number", true, map[string]any{"a": "b"}}
		case bool:
			alts = []any{"yes", int64(1)}
		case map[string]any:
			alts = []any{"text", []any{"x"}}
		case []any:
			alts = []any{"text", map[string]any{"a": "b"}}
		}
		for _, a := range alts {
			g.add(WrongType, n.p, typeName(n.v)+" -> "+typeName(a), set(g.base, n.p, a))
		}
	}
}

func typeName(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case int64, float64, int:
		return "number"
	case bool:
		return "boolean"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	}
	return "null"
}

// missingFields deletes every field, one at a time: the ones the API server
// requires are missing, the others are optional.
func missingFields(g *gen) {
	for _, n := range g.nodes {
		if len(n.p) == 0 || fixed(n.p) {
			continue
		}
		if _, ok := n.p[len(n.p)-1].(string); !ok {
			continue
		}
		g.add(MissingField, n.p, "deleted", del(g.base, n.p))
	}
}
