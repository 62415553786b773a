package config

import (
	"fmt"
	"strconv"
	"strings"
)

// YieldStep is one step of a yield: path.
//
//	spec                 a field (Field)
//	["example.com/x"]    a field whose name holds dots (Field, quoted)
//	[*]                  every item of a list (All)
//	[name=app]           the items of a list whose field name is app
//	                     (Key, Value; a number or a quoted string)
type YieldStep struct {
	Field      string
	All        bool
	Key, Value string
}

// IsItem reports whether s selects list items ([*] or [key=value]).
func (s YieldStep) IsItem() bool { return s.All || s.Key != "" }

// YieldPath is a parsed yield: path.
type YieldPath []YieldStep

// String is the path as it is written.
func (p YieldPath) String() string {
	var b strings.Builder
	for i, s := range p {
		switch {
		case s.All:
			b.WriteString("[*]")
		case s.Key != "":
			fmt.Fprintf(&b, "[%s=%s]", s.Key, quoteIfNeeded(s.Value))
		case strings.ContainsAny(s.Field, ".[]\"=*"):
			b.WriteString("[" + strconv.Quote(s.Field) + "]")
		default:
			if i > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s.Field)
		}
	}
	return b.String()
}

func quoteIfNeeded(v string) string {
	if v == "" || strings.ContainsAny(v, ".[]\"=,* ") {
		return strconv.Quote(v)
	}
	return v
}

// ParseYieldPath reads a path such as
// spec.template.spec.containers[*].resources: fields joined by dots, [*]
// for every item of a list, [name=app] for the items whose key field has
// that value, ["a.b/c"] for a field whose name holds dots. The first step
// is a field.
func ParseYieldPath(s string) (YieldPath, error) {
	if s == "" {
		return nil, fmt.Errorf("empty path")
	}
	var out YieldPath
	for i := 0; i < len(s); {
		switch c := s[i]; {
		case c == '.':
			if i == 0 || i+1 >= len(s) || s[i+1] == '.' || s[i+1] == '[' {
				return nil, fmt.Errorf("a field name must follow %q at %d", ".", i)
			}
			i++
		case c == '[':
			end := SelectorEnd(s[i+1:])
			if end < 0 {
				return nil, fmt.Errorf("unterminated [ at %d", i)
			}
			step, err := parseStep(s[i+1 : i+1+end])
			if err != nil {
				return nil, fmt.Errorf("%s at %d", err, i)
			}
			if i == 0 && step.IsItem() {
				return nil, fmt.Errorf("a path starts with a field, not a list selector")
			}
			out = append(out, step)
			i += end + 2
			if i < len(s) && s[i] != '.' && s[i] != '[' {
				return nil, fmt.Errorf("want . or [ after ] at %d", i)
			}
		case c == ']' || c == '"' || c == '=' || c == '*':
			return nil, fmt.Errorf("unexpected %q at %d", c, i)
		default:
			j := i
			for j < len(s) && !strings.ContainsRune(".[]\"=*", rune(s[j])) {
				j++
			}
			if j < len(s) && s[j] != '.' && s[j] != '[' {
				return nil, fmt.Errorf("unexpected %q at %d", s[j], j)
			}
			out = append(out, YieldStep{Field: s[i:j]})
			i = j
		}
	}
	return out, nil
}

// SelectorEnd is the index of the ] that closes a list-item selector
// (what follows its [), skipping quoted strings; -1 when there is none.
// serve reads the API server's field paths with it too.
func SelectorEnd(s string) int {
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '"':
			q, err := strconv.QuotedPrefix(s[i:])
			if err != nil {
				return -1
			}
			i += len(q) - 1
		case ']':
			return i
		}
	}
	return -1
}

// parseStep reads what is between [ and ].
func parseStep(in string) (YieldStep, error) {
	switch {
	case in == "*":
		return YieldStep{All: true}, nil
	case strings.HasPrefix(in, `"`):
		f, err := strconv.Unquote(in)
		if err != nil || f == "" {
			return YieldStep{}, fmt.Errorf("bad quoted field name %s", in)
		}
		return YieldStep{Field: f}, nil
	}
	k, v, ok := strings.Cut(in, "=")
	if !ok || k == "" || v == "" || strings.ContainsAny(k, `"[]*. `) {
		return YieldStep{}, fmt.Errorf("want [*], [KEY=VALUE] or [\"field.name\"], got [%s]", in)
	}
	if strings.HasPrefix(v, `"`) {
		u, err := strconv.Unquote(v)
		if err != nil {
			return YieldStep{}, fmt.Errorf("bad quoted value %s", v)
		}
		v = u
	} else if strings.ContainsAny(v, `"[]*`) {
		return YieldStep{}, fmt.Errorf("bad value %q in [%s] (quote it)", v, in)
	}
	return YieldStep{Key: k, Value: v}, nil
}
