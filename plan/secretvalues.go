package plan

import (
	"fmt"
	"slices"

	"github.com/kubeplan/kubeplan/internal/sops"
)

// SecretValues returns the values a Secret object (apiVersion v1, kind
// Secret) holds, so they can be hidden from CI logs: every string under
// stringData, and for every value under data both its base64 text and,
// when that decodes to printable text, the decoded value. It returns nil
// for any other object, and never fails: a value that does not decode is
// returned as written. Numbers and booleans (invalid in a Secret, but
// possibly secret) are returned as text, and so is a data or stringData
// that is a single value instead of an object. The order is deterministic.
func SecretValues(obj map[string]any) []string {
	if !isSecret(obj) {
		return nil
	}
	var out []string
	for _, f := range secretFields {
		m, ok := obj[f].(map[string]any)
		if !ok {
			// Not a valid Secret, but what it holds may still be secret.
			if v := scalarText(obj[f]); v != "" {
				out = append(out, v)
			}
			continue
		}
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			v := scalarText(m[k])
			if v == "" || v == HiddenLookup { // a saved plan's stand-in, no value
				continue
			}
			out = append(out, v)
			if f == "data" {
				if dec, ok := sops.DecodeText(v); ok {
					out = append(out, dec)
				}
			}
		}
	}
	return out
}

func scalarText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case nil, map[string]any, []any:
		return ""
	default:
		return fmt.Sprint(v)
	}
}
