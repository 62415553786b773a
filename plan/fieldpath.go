package plan

import (
	"fmt"
	"strconv"
	"strings"
)

// pathSeg is one step of a server-side apply field path, as the apiserver
// writes it in conflict causes (structured-merge-diff's Path.String):
//
//	.spec                                   a field
//	[name="shop"]                           a list element, by its keys
//	[containerPort=80,protocol="TCP"]       several keys: numbers bare, strings quoted
//	[="example.com"]                        a set element, by its value
//	[2]                                     a list element, by position
type pathSeg struct {
	field string
	keys  []pathKey // for a keyed list element
	value any       // for a set element (hasValue)
	index int       // for a positional element (hasIndex)

	hasValue, hasIndex bool
}

type pathKey struct {
	name  string
	value any // string, int64, float64, bool or nil
}

// parseFieldPath splits a field path like
// `.spec.template.spec.containers[name="shop"].image` into its steps.
func parseFieldPath(p string) ([]pathSeg, error) {
	var out []pathSeg
	for i := 0; i < len(p); {
		switch p[i] {
		case '.':
			j := i + 1
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			if j > i+1 {
				out = append(out, pathSeg{field: p[i+1 : j]})
			}
			i = j
		case '[':
			seg, n, err := parseSelector(p[i+1:])
			if err != nil {
				return nil, fmt.Errorf("field path %q at %d: %w", p, i, err)
			}
			out = append(out, seg)
			i += 1 + n
		default:
			// A path without a leading dot ("spec.replicas").
			j := i
			for j < len(p) && p[j] != '.' && p[j] != '[' {
				j++
			}
			out = append(out, pathSeg{field: p[i:j]})
			i = j
		}
	}
	return out, nil
}

// parseSelector reads what follows a '[' up to and including its ']' and
// returns the step and the bytes read.
func parseSelector(s string) (pathSeg, int, error) {
	if s == "" {
		return pathSeg{}, 0, fmt.Errorf("unterminated [")
	}
	if s[0] == '=' {
		v, n, err := parseValue(s[1:])
		if err != nil {
			return pathSeg{}, 0, err
		}
		if 1+n >= len(s) || s[1+n] != ']' {
			return pathSeg{}, 0, fmt.Errorf("want ] after a set value")
		}
		return pathSeg{value: v, hasValue: true}, n + 2, nil
	}
	if end := strings.IndexByte(s, ']'); end > 0 {
		if idx, err := strconv.Atoi(s[:end]); err == nil {
			return pathSeg{index: idx, hasIndex: true}, end + 1, nil
		}
	}
	var seg pathSeg
	for i := 0; ; {
		eq := strings.IndexByte(s[i:], '=')
		if eq <= 0 {
			return pathSeg{}, 0, fmt.Errorf("want KEY=VALUE in a list selector")
		}
		name := s[i : i+eq]
		v, n, err := parseValue(s[i+eq+1:])
		if err != nil {
			return pathSeg{}, 0, fmt.Errorf("key %s: %w", name, err)
		}
		seg.keys = append(seg.keys, pathKey{name: name, value: v})
		i += eq + 1 + n
		if i >= len(s) {
			return pathSeg{}, 0, fmt.Errorf("unterminated [")
		}
		switch s[i] {
		case ']':
			return seg, i + 1, nil
		case ',':
			i++
		default:
			return pathSeg{}, 0, fmt.Errorf("unexpected %q in a list selector", s[i])
		}
	}
}

// parseValue reads one scalar: a Go-quoted string, a number, true, false or
// null; it ends before the ',' or ']' that follows.
func parseValue(s string) (any, int, error) {
	if strings.HasPrefix(s, `"`) {
		q, err := strconv.QuotedPrefix(s)
		if err != nil {
			return nil, 0, fmt.Errorf("bad quoted value: %w", err)
		}
		v, err := strconv.Unquote(q)
		if err != nil {
			return nil, 0, fmt.Errorf("bad quoted value: %w", err)
		}
		return v, len(q), nil
	}
	n := strings.IndexAny(s, ",]")
	if n < 0 {
		n = len(s)
	}
	raw := s[:n]
	switch raw {
	case "true":
		return true, n, nil
	case "false":
		return false, n, nil
	case "null":
		return nil, n, nil
	}
	if i, err := strconv.ParseInt(raw, 10, 64); err == nil {
		return i, n, nil
	}
	if f, err := strconv.ParseFloat(raw, 64); err == nil {
		return f, n, nil
	}
	return nil, 0, fmt.Errorf("bad value %q", raw)
}
