package lint

import (
	"fmt"
	"maps"
	"math"
	"regexp"
	"regexp/syntax"
	"slices"
	"strings"
)

// This file extends instanceGen to the keywords of CRD schemas: values at
// and around bounds, enum members and strangers, strings that match a
// pattern and strings that miss it, duplicate list items, names for
// patternProperties, the subschemas of anyOf and allOf.

// merged is s with the subschemas of its allOf, and one picked of its
// anyOf, laid over it: what an instance is generated from. The keywords
// of s itself are kept, so bounds on an int-or-string stay.
func (g *instanceGen) merged(s map[string]any) map[string]any {
	all, hasAll := s["allOf"].([]any)
	anyOf, hasAny := s["anyOf"].([]any)
	if !hasAll && !hasAny {
		return s
	}
	out := map[string]any{}
	var subs []any
	subs = append(subs, all...)
	if hasAny && len(anyOf) > 0 {
		subs = append(subs, anyOf[g.rng.IntN(len(anyOf))])
	}
	for _, sub := range subs {
		if m, ok := sub.(map[string]any); ok {
			for k, v := range g.resolve(m) {
				out[k] = v
			}
		}
	}
	for k, v := range s {
		if k == "allOf" || k == "anyOf" {
			continue
		}
		if _, set := out[k]; !set || k != "type" {
			out[k] = v
		}
	}
	return out
}

// enumValue is a member of s's enum, or (when mutating) a stranger.
func (g *instanceGen) enumValue(s map[string]any) (any, bool) {
	enum, ok := s["enum"].([]any)
	if !ok || len(enum) == 0 {
		return nil, false
	}
	if g.mutate > 0 && g.rng.IntN(3) == 0 {
		return []any{"NotAMember", int64(12345), 1.5, ""}[g.rng.IntN(4)], true
	}
	v := enum[g.rng.IntN(len(enum))]
	if f, ok := v.(float64); ok && f == math.Trunc(f) && g.rng.IntN(2) == 0 {
		return int64(f), true // the same number, as YAML reads it
	}
	return v, true
}

// number is an integer or number near s's bounds.
func (g *instanceGen) number(s map[string]any, integer bool) any {
	var near []float64
	for _, k := range []string{"minimum", "maximum"} {
		if b, ok := numberOf(s[k]); ok {
			near = append(near, b, b+1, b-1)
			if !integer {
				near = append(near, b+0.5, b-0.25)
			}
		}
	}
	if m, ok := numberOf(s["multipleOf"]); ok {
		k := float64(g.rng.IntN(5))
		near = append(near, m*k, m*k+1, m*2)
	}
	if len(near) > 0 && (g.mutate > 0 || g.rng.IntN(2) == 0) {
		f := near[g.rng.IntN(len(near))]
		if integer && f != math.Trunc(f) {
			f = math.Trunc(f)
		}
		if f == math.Trunc(f) && math.Abs(f) < 1<<53 && g.rng.IntN(3) != 0 {
			return int64(f)
		}
		return f
	}
	if integer {
		if g.rng.IntN(8) == 0 {
			return float64(g.rng.IntN(100)) // a whole float is an integer
		}
		if g.mutate > 0 && g.rng.IntN(8) == 0 {
			return 2.5
		}
		return int64(g.rng.IntN(1000))
	}
	if g.rng.IntN(2) == 0 {
		return g.rng.Float64() * 10
	}
	return int64(g.rng.IntN(10))
}

func numberOf(v any) (float64, bool) {
	f, ok := v.(float64)
	return f, ok
}

// str is a string for s: of the format, matching (or, mutating, missing)
// the pattern, with a length at or around the bounds.
func (g *instanceGen) str(s map[string]any) string {
	bad := g.mutate > 0 && g.rng.IntN(3) == 0
	switch s["format"] {
	case "date-time":
		good := []string{"2024-01-02T03:04:05Z", "2024-02-29T23:59:59.5+01:00"}
		wrong := []string{"yesterday", "2024-01-02 03:04:05Z", "2023-02-29T00:00:00Z", "2024-01-02T25:00:00Z", "2024-01-02"}
		if bad {
			return wrong[g.rng.IntN(len(wrong))]
		}
		return good[g.rng.IntN(len(good))]
	case "duration":
		if bad {
			return []string{"1 hour", "5", "PT"}[g.rng.IntN(3)]
		}
		return []string{"1h30m", "PT1H", "10s"}[g.rng.IntN(3)]
	}
	if p, ok := s["pattern"].(string); ok {
		if bad {
			return []string{"", "Not Valid!", "-", "a b", "ÄÖ", "x"}[g.rng.IntN(6)]
		}
		if m, ok := matching(p, g); ok {
			return m
		}
	}
	minLen, hasMin := numberOf(s["minLength"])
	maxLen, hasMax := numberOf(s["maxLength"])
	var lengths []int
	if hasMin || hasMax {
		if hasMin {
			lengths = append(lengths, int(minLen), int(minLen)+1)
			if bad {
				lengths = append(lengths, int(minLen)-1)
			}
		}
		if hasMax && maxLen < 300 {
			lengths = append(lengths, int(maxLen))
			if bad {
				lengths = append(lengths, int(maxLen)+1)
			}
		}
	}
	if len(lengths) > 0 {
		n := max(lengths[g.rng.IntN(len(lengths))], 0)
		r := "a"
		if g.rng.IntN(3) == 0 {
			r = "é" // lengths are in runes, not bytes
		}
		return strings.Repeat(r, n)
	}
	return fmt.Sprintf("v%d", g.rng.IntN(100))
}

// matching makes a string the pattern p matches, from its syntax tree,
// or says it could not.
func matching(p string, g *instanceGen) (string, bool) {
	re, err := syntax.Parse(p, syntax.Perl)
	if err != nil {
		return "", false
	}
	check, err := regexp.Compile(p)
	if err != nil {
		return "", false
	}
	for range 5 {
		var b strings.Builder
		g.fromSyntax(re.Simplify(), &b)
		if check.MatchString(b.String()) {
			return b.String(), true
		}
	}
	return "", false
}

func (g *instanceGen) fromSyntax(re *syntax.Regexp, b *strings.Builder) {
	repeat := func(lo, hi int) {
		if hi < 0 || hi > lo+3 {
			hi = lo + 3
		}
		for range lo + g.rng.IntN(hi-lo+1) {
			g.fromSyntax(re.Sub[0], b)
		}
	}
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		if len(re.Rune) >= 2 {
			i := g.rng.IntN(len(re.Rune)/2) * 2
			lo, hi := re.Rune[i], re.Rune[i+1]
			if hi > lo+50 {
				hi = lo + 50
			}
			b.WriteRune(lo + rune(g.rng.IntN(int(hi-lo)+1)))
		}
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte('x')
	case syntax.OpCapture:
		g.fromSyntax(re.Sub[0], b)
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			g.fromSyntax(sub, b)
		}
	case syntax.OpAlternate:
		g.fromSyntax(re.Sub[g.rng.IntN(len(re.Sub))], b)
	case syntax.OpStar:
		repeat(0, 3)
	case syntax.OpPlus:
		repeat(1, 3)
	case syntax.OpQuest:
		repeat(0, 1)
	case syntax.OpRepeat:
		repeat(re.Min, re.Max)
	}
}

// arrayLen is a list length for s, around minItems and maxItems.
func (g *instanceGen) arrayLen(s map[string]any) int {
	n := g.rng.IntN(3)
	if lo, ok := numberOf(s["minItems"]); ok && (g.rng.IntN(2) == 0 || n < int(lo)) {
		n = int(lo)
		if g.mutate > 0 && g.rng.IntN(3) == 0 {
			n--
		}
	}
	if hi, ok := numberOf(s["maxItems"]); ok && hi < 6 && g.rng.IntN(3) == 0 {
		n = int(hi)
		if g.mutate > 0 && g.rng.IntN(2) == 0 {
			n++
		}
	}
	return min(max(n, 0), 6)
}

// patternNames adds properties named to match s's patternProperties.
func (g *instanceGen) patternNames(s map[string]any, out map[string]any, depth int) {
	pp, _ := s["patternProperties"].(map[string]any)
	for _, p := range slices.Sorted(maps.Keys(pp)) { // in order: the same instances every run
		sub := pp[p]
		if depth >= 7 {
			return
		}
		if name, ok := matching(p, g); ok && name != "" {
			out[name] = g.value(sub.(map[string]any), depth+1)
		}
	}
}

// propCount pads or trims out towards min/maxProperties.
func (g *instanceGen) propCount(s map[string]any, out map[string]any) {
	if lo, ok := numberOf(s["minProperties"]); ok && g.rng.IntN(2) == 0 {
		for i := 0; len(out) < int(lo)-1+g.rng.IntN(2); i++ {
			out[fmt.Sprintf("pad%d", i)] = "x"
		}
	}
	if hi, ok := numberOf(s["maxProperties"]); ok && hi < 6 && g.rng.IntN(2) == 0 {
		for i := 0; len(out) <= int(hi); i++ {
			out[fmt.Sprintf("extra%d", i)] = "x"
		}
	}
}
