package manifest

import (
	"bytes"
	"fmt"
	"strings"
	"unicode/utf8"
)

// blockError finds a mistake in the block structure (indentation, a
// missing colon, text after a value): the first line, from the one yaml.v3
// named on, whose prefix fails to parse, then the first column on it that
// makes the prefix fail the same way.
func (t *docText) blockError(reported int) (syntaxSpot, bool) {
	for l := max(1, reported-1); l <= t.lines(); l++ {
		text := t.text(l)
		if c := bytes.TrimSpace(text); len(c) == 0 || c[0] == '#' {
			continue
		}
		msg, ok := t.prefixError(t.start[l-1] + len(text))
		if !ok {
			break
		}
		if msg == "" || endsEarly(msg) {
			continue
		}
		return t.blockColumn(l, msg), true
	}
	return syntaxSpot{}, false
}

// blockColumn is the place on line l of the error msg its prefix ends in.
func (t *docText) blockColumn(l int, msg string) syntaxSpot {
	text := t.text(l)
	ind := t.indent(l)
	at := ind // byte offset of the token the parser could not fit
	for i := ind + 1; i <= len(text); i++ {
		if i < len(text) && !utf8.RuneStart(text[i]) {
			continue
		}
		m, ok := t.prefixError(t.start[l-1] + i)
		if !ok {
			break
		}
		if m == msg {
			at = i - 1
			break
		}
	}
	at = tokenBack(text, ind, at, strings.HasPrefix(msg, "mapping values are not allowed"))
	spot := syntaxSpot{line: l, col: t.col(l, at)}
	before := string(text[ind:at])
	first := !strings.Contains(before, ": ") && !strings.HasPrefix(before, "- ")
	switch {
	case strings.HasPrefix(msg, "mapping values are not allowed") && first:
		// A line indented deeper than the key above it continues that
		// key's value; the colon is where the parser noticed.
		spot.col = ind + 1
		spot.hint = fmt.Sprintf("this line is indented %s, deeper than the line above it (%s), so YAML reads it as part of the value above; indent it like the keys it belongs with",
			spaces(ind), spaces(t.indent(t.prevContent(l))))
	case strings.HasPrefix(msg, "mapping values are not allowed"):
		spot.hint = `a value containing ": " must be quoted: put the whole value in quotes`
	case strings.HasPrefix(msg, "could not find expected ':'"):
		spot.hint = `a key needs a colon and a space before its value ("key: value")`
	case at > ind:
		spot.hint = "unexpected text after the value on this line: quote the whole value, or remove what follows it"
	case strings.HasPrefix(string(text[ind:]), "- ") || string(text[ind:]) == "-":
		spot.hint = "a list item where the block above it expects a key; indent it like the other items of its list"
	case strings.HasPrefix(msg, "did not find expected") || strings.HasPrefix(msg, "block sequence entries"):
		spot.hint = fmt.Sprintf("this line is indented %s, which does not line up with the block above it (the line above has its keys at %s); indent it like the keys it belongs with",
			spaces(ind), spaces(t.keyIndent(t.prevContent(l))))
	}
	return spot
}

// prevContent is the last line before l that is neither blank nor a
// comment (l itself when there is none).
func (t *docText) prevContent(l int) int {
	for p := l - 1; p >= 1; p-- {
		if c := bytes.TrimSpace(t.text(p)); len(c) > 0 && c[0] != '#' {
			return p
		}
	}
	return l
}

// keyIndent is where the content of line l starts after its indentation
// and list dashes: the column its keys line up at.
func (t *docText) keyIndent(l int) int {
	text := t.text(l)
	i := t.indent(l)
	for i+1 < len(text) && text[i] == '-' && text[i+1] == ' ' {
		i += 2
		for i < len(text) && text[i] == ' ' {
			i++
		}
	}
	return i
}

func spaces(n int) string {
	if n == 1 {
		return "1 space"
	}
	return fmt.Sprintf("%d spaces", n)
}

// tokenBack moves from the byte at which a prefix started to fail back to
// the start of the token that failed (libyaml's problem mark): a simple
// key is only seen as one at its colon, a plain scalar some characters in.
// A colon is the token itself when colon is set ("mapping values are not
// allowed" is about the colon).
func tokenBack(text []byte, ind, at int, colon bool) int {
	for at > ind && (text[at] == ' ' || text[at] == '\t') {
		at--
	}
	if colon && text[at] == ':' {
		return at
	}
	for at > ind && !bytes.ContainsAny(text[at-1:at], " \t[]{},\"'") {
		at--
	}
	return at
}
