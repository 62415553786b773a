package lint

import "strings"

// yaml11SchemaAt follows path (property names, list indexes) down the raw JSON
// schema s, resolving "#/definitions/..." references against root. It
// returns nil where the schema says nothing (x-kubernetes-preserve-unknown-
// fields, a path it does not know).
func yaml11SchemaAt(root, s map[string]any, path []string) map[string]any {
	for _, p := range path {
		s = yaml11Deref(root, s)
		if s == nil {
			return nil
		}
		s = yaml11Child(root, s, p)
	}
	return yaml11Deref(root, s)
}

// yaml11Child is the schema of member p of the object or list schema s.
func yaml11Child(root, s map[string]any, p string) map[string]any {
	if props, ok := s["properties"].(map[string]any); ok {
		if c, ok := props[p].(map[string]any); ok {
			return c
		}
	}
	if c, ok := s["additionalProperties"].(map[string]any); ok {
		return c
	}
	if c, ok := s["items"].(map[string]any); ok {
		return c
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		subs, _ := s[k].([]any)
		for _, sub := range subs {
			if m, ok := sub.(map[string]any); ok {
				if m = yaml11Deref(root, m); m != nil {
					if c := yaml11Child(root, m, p); c != nil {
						return c
					}
				}
			}
		}
	}
	return nil
}

// yaml11Deref resolves a local "$ref" (a few levels at most).
func yaml11Deref(root, s map[string]any) map[string]any {
	for i := 0; s != nil && i < 8; i++ {
		ref, ok := s["$ref"].(string)
		if !ok {
			return s
		}
		name, ok := strings.CutPrefix(ref, "#/definitions/")
		if !ok || root == nil {
			return nil
		}
		defs, _ := root["definitions"].(map[string]any)
		s, _ = defs[name].(map[string]any)
	}
	return nil
}

// yaml11Types lists the JSON types schema s allows (its "type" and those
// of its oneOf/anyOf/allOf members), nil when it does not say.
func yaml11Types(root, s map[string]any) []string {
	if s == nil {
		return nil
	}
	var out []string
	switch t := s["type"].(type) {
	case string:
		out = append(out, t)
	case []any:
		for _, x := range t {
			if ts, ok := x.(string); ok {
				out = append(out, ts)
			}
		}
	}
	if b, _ := s["x-kubernetes-int-or-string"].(bool); b {
		out = append(out, "integer", "string")
	}
	for _, k := range []string{"allOf", "anyOf", "oneOf"} {
		subs, _ := s[k].([]any)
		for _, sub := range subs {
			if m, ok := sub.(map[string]any); ok {
				out = append(out, yaml11Types(root, yaml11Deref(root, m))...)
			}
		}
	}
	return out
}

// yaml11OnlyType is "string" or "boolean" when that is the one non-null type in
// ts, "" otherwise.
func yaml11OnlyType(ts []string) string {
	one := ""
	for _, t := range ts {
		if t == "null" || t == one {
			continue
		}
		if one != "" {
			return ""
		}
		one = t
	}
	if one == "string" || one == "boolean" {
		return one
	}
	return ""
}
