package ghreview

import (
	"errors"
	"strings"
)

// span says which paths a pattern's segments cover once they matched a
// path's first k segments.
type span int

const (
	// selfOrBelow: the matched path and everything below it ("apps/db",
	// "*.yaml").
	selfOrBelow span = iota
	// below: only what is below the matched path ("apps/", "apps/**").
	below
	// exact: only the matched path: a pattern whose last segment is a lone
	// "*" ("docs/*" owns docs/a.md, not docs/guide/b.md).
	exact
)

// pattern is one CODEOWNERS pattern, compiled to path segments.
type pattern struct {
	text string
	// segs are globs for one segment each, or "**" for any number of
	// segments (none included).
	segs []string
	span span
}

// compilePattern reads a CODEOWNERS pattern as GitHub does (gitignore's
// rules, with its exceptions):
//
//   - a pattern with a "/" at its start or in its middle is anchored at
//     the repository's root; one without ("*.yaml", "apps/") matches at
//     any depth;
//   - a trailing "/" (or "/**") matches only what is below the path;
//   - "*" matches within one segment, "?" one character, "**" any number
//     of segments, "\" makes the next character literal;
//   - a last segment that is a lone "*" matches one level only
//     ("docs/*": docs/a.md, not docs/guide/b.md), as GitHub documents;
//   - "!" negation and "[ ]" ranges are not supported by GitHub: a
//     negation is an error, brackets are literal characters.
func compilePattern(text string) (pattern, error) {
	p := pattern{text: text, span: selfOrBelow}
	switch {
	case text == "":
		return p, errors.New("empty pattern")
	case strings.HasPrefix(text, "!"):
		return p, errors.New("negation (!) is not supported in CODEOWNERS")
	case strings.Contains(text, "***"):
		return p, errors.New("three asterisks in a row")
	case text == "/":
		return p, errors.New(`"/" matches nothing`)
	}
	s := text
	if strings.HasSuffix(s, "/") {
		s = strings.TrimSuffix(s, "/")
		p.span = below
	}
	anchored := strings.Contains(s, "/") // at its start or in its middle
	s = strings.TrimPrefix(s, "/")
	segs := strings.Split(s, "/")
	for _, g := range segs {
		if g == "" {
			return p, errors.New("empty path segment (//)")
		}
	}
	if !anchored && segs[0] != "**" {
		segs = append([]string{"**"}, segs...)
	}
	if len(segs) > 0 && segs[len(segs)-1] == "**" {
		segs = segs[:len(segs)-1]
		p.span = below
	}
	if p.span == selfOrBelow && len(segs) > 0 && segs[len(segs)-1] == "*" {
		p.span = exact
	}
	p.segs = segs
	return p, nil
}

// reach returns, for each k in 0..len(path), the set of i such that
// segs[:i] matches path[:k] exactly: reach[k][i].
func (p pattern) reach(path []string) [][]bool {
	n := len(p.segs)
	r := make([][]bool, len(path)+1)
	for k := range r {
		r[k] = make([]bool, n+1)
	}
	r[0][0] = true
	for k := 0; k <= len(path); k++ {
		for i := 0; i <= n; i++ {
			if !r[k][i] || i == n {
				continue
			}
			if p.segs[i] == "**" {
				r[k][i+1] = true // none
				if k < len(path) {
					r[k+1][i] = true // one more, and maybe others
				}
				continue
			}
			if k < len(path) && globMatch(p.segs[i], path[k]) {
				r[k+1][i+1] = true
			}
		}
	}
	return r
}

// matchFile reports whether the pattern matches the file path (segments).
func (p pattern) matchFile(path []string) bool {
	r, n := p.reach(path), len(p.segs)
	for k := range r {
		if !r[k][n] {
			continue
		}
		switch {
		case p.span == selfOrBelow && k > 0,
			p.span == below && k < len(path),
			p.span == exact && k == len(path):
			return true
		}
	}
	return false
}

// coversDir reports whether the pattern matches every path below the
// directory dir (segments; none for the root). It may say false for a
// pattern that does (a glob that happens to match every name): the caller
// then also requires the owners of the rule for files below, which only
// makes approving harder, never easier.
func (p pattern) coversDir(dir []string) bool {
	r, n := p.reach(dir), len(p.segs)
	for k := range r {
		// Matched dir or a directory above it: everything below is below
		// the match.
		if r[k][n] && (p.span == below || p.span == selfOrBelow && k > 0) {
			return true
		}
	}
	for i := 0; i < n; i++ {
		if r[len(dir)][i] && universalTail(p.segs[i:], p.span) {
			return true
		}
	}
	return false
}

// universalTail reports whether segs (the rest of a pattern) with span
// match every non-empty sequence of segments, seen only through lone "*"
// and "**": "**/*" with exact, "*" or "**/*" with selfOrBelow, "**" with
// below.
func universalTail(segs []string, s span) bool {
	stars, any := 0, false
	for _, g := range segs {
		switch g {
		case "*":
			stars++
		case "**":
			any = true
		default:
			return false
		}
	}
	switch s {
	case exact:
		return any && stars == 1
	case selfOrBelow:
		return stars <= 1
	default:
		return stars == 0
	}
}

// mayMatchBelow reports whether the pattern could match some path below
// the directory dir. It may say true for a pattern that cannot (a glob no
// name matches), which only makes approving harder.
func (p pattern) mayMatchBelow(dir []string) bool {
	r, n := p.reach(dir), len(p.segs)
	for k := range r {
		if r[k][n] && (p.span == below || p.span == selfOrBelow && k > 0) {
			return true
		}
	}
	for i := 0; i < n; i++ {
		if r[len(dir)][i] {
			return true
		}
	}
	return false
}

// globMatch matches one path segment name against glob: "*" any run of
// characters, "?" one character, "\" escapes the next character, anything
// else itself. It runs in O(len(glob)*len(name)).
func globMatch(glob, name string) bool {
	g, s := []rune(glob), []rune(name)
	gi, si := 0, 0
	starG, starS := -1, 0
	for si < len(s) {
		if gi < len(g) {
			switch c := g[gi]; {
			case c == '*':
				starG, starS = gi, si
				gi++
				continue
			case c == '?':
				gi++
				si++
				continue
			case c == '\\' && gi+1 < len(g):
				if g[gi+1] == s[si] {
					gi += 2
					si++
					continue
				}
			case c == s[si]:
				gi++
				si++
				continue
			}
		}
		if starG < 0 {
			return false
		}
		starS++
		gi, si = starG+1, starS
	}
	for gi < len(g) && g[gi] == '*' {
		gi++
	}
	return gi == len(g)
}
