package plan

import (
	"encoding/base64"
	"fmt"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
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
			if v == "" {
				continue
			}
			out = append(out, v)
			if f == "data" {
				if dec, ok := decodePrintable(v); ok {
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

// decodePrintable decodes base64 (white space ignored, as the API server
// does not, but people wrap long values) and reports whether the result is
// text worth masking: valid UTF-8 without control characters other than
// tab and line breaks.
func decodePrintable(s string) (string, bool) {
	s = strings.Map(func(r rune) rune {
		if unicode.IsSpace(r) {
			return -1
		}
		return r
	}, s)
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || len(b) == 0 || !utf8.Valid(b) {
		return "", false
	}
	for _, r := range string(b) {
		if unicode.IsControl(r) && r != '\t' && r != '\n' && r != '\r' {
			return "", false
		}
	}
	return string(b), true
}
