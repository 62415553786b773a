package manifest

import (
	"bytes"
	"fmt"
	"sort"
	"strings"
)

// unclosedQuote finds the quote on line that starts a scalar and is not
// closed on it: libyaml reaches the end of the document looking for it.
func (t *docText) unclosedQuote(line int) (syntaxSpot, bool) {
	if line < 1 || line > t.lines() {
		return syntaxSpot{}, false
	}
	text := t.text(line)
	i := openQuote(text)
	if i < 0 {
		return syntaxSpot{}, false
	}
	return syntaxSpot{line: line, col: t.col(line, i),
		hint: fmt.Sprintf("the quote %c that starts this value is never closed: add the closing %c at the end of the value", text[i], text[i])}, true
}

// openQuote is the byte offset of a quote on text that starts a scalar and
// is not closed on the line, -1 when there is none.
func openQuote(text []byte) int {
	open, q := -1, byte(0)
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case q == '"':
			if c == '\\' {
				i++
			} else if c == '"' {
				q = 0
			}
		case q == '\'':
			if c == '\'' && i+1 < len(text) && text[i+1] == '\'' {
				i++
			} else if c == '\'' {
				q = 0
			}
		case c == '#' && tokenStart(text, i):
			return -1 // a comment
		case (c == '"' || c == '\'') && tokenStart(text, i):
			q, open = c, i
		}
	}
	if q != 0 {
		return open
	}
	return -1
}

// tokenStart reports whether a token may start at byte i of text.
func tokenStart(text []byte, i int) bool {
	if i == 0 {
		return true
	}
	switch text[i-1] {
	case ' ', '\t', '[', '{', ',':
		return true
	}
	return false
}

// badTokenStart finds the character on line that no YAML token starts with
// ("@" and "`" are reserved).
func (t *docText) badTokenStart(line int) (syntaxSpot, bool) {
	if line < 1 || line > t.lines() {
		return syntaxSpot{}, false
	}
	text := t.text(line)
	for i, c := range text {
		if (c == '@' || c == '`') && tokenStart(text, i) && openQuote(text[:i]) < 0 {
			return syntaxSpot{line: line, col: t.col(line, i),
				hint: fmt.Sprintf("a plain value cannot start with %q: put the value in quotes", string(c))}, true
		}
	}
	return syntaxSpot{}, false
}

// unknownAlias finds the alias an "unknown anchor 'name' referenced"
// message is about.
func (t *docText) unknownAlias(msg string) (syntaxSpot, bool) {
	name := strings.TrimSuffix(strings.TrimPrefix(msg, "unknown anchor '"), "' referenced")
	ref := []byte("*" + name)
	for off := 0; ; {
		i := bytes.Index(t.data[off:], ref)
		if i < 0 {
			return syntaxSpot{}, false
		}
		i += off
		off = i + 1
		end := i + len(ref)
		if (i > 0 && !tokenStart(t.data, i) && t.data[i-1] != '\n') || (end < len(t.data) && !bytes.ContainsAny(t.data[end:end+1], " \t\r\n,]}")) {
			continue
		}
		l := sort.SearchInts(t.start, i+1) // the line whose start is the last <= i
		return syntaxSpot{line: l, col: t.col(l, i-t.start[l-1]),
			hint: fmt.Sprintf("no anchor &%s is defined before this alias: define it, or fix the name", name)}, true
	}
}

// flowError finds what is wrong with a flow collection ("[...]" or
// "{...}"): an item after which a "," is missing, or the opening bracket
// when the collection is not closed before the block structure goes on.
// yaml.v3 names the line of the collection's opening bracket, or, when that
// is the document's first line, the line of the problem: the collections
// starting on the named line and above it are read, nearest first.
func (t *docText) flowError(line int) (syntaxSpot, bool) {
	for l := min(line, t.lines()); l >= 1; l-- {
		if spot, ok := t.flowFrom(l); ok {
			return spot, true
		}
	}
	return syntaxSpot{}, false
}

// flowFrom reads the first flow collection starting on line, see flowError.
func (t *docText) flowFrom(line int) (syntaxSpot, bool) {
	type open struct{ line, at int }
	var stack []open
	base := t.indent(line)
	item := false // a complete item was read: a separator must follow
	for l := line; l <= t.lines(); l++ {
		text := t.text(l)
		if l > line && len(stack) > 0 {
			// The block structure going on (a "key: " or "- " line no
			// deeper than the collection's line, or after an item with
			// no comma) means the collection was never closed.
			if c := bytes.TrimSpace(text); len(c) > 0 && blockLine(c) && (t.indent(l) <= base || item) {
				o := stack[0]
				return syntaxSpot{line: o.line, col: t.col(o.line, o.at),
					hint: fmt.Sprintf("this %c is never closed: add the closing %c", t.text(o.line)[o.at], closer(t.text(o.line)[o.at]))}, true
			}
		}
		for j := 0; j < len(text); {
			c := text[j]
			switch {
			case len(stack) == 0 && l == line:
				// before the collection: find its opening bracket
				if (c == '[' || c == '{') && tokenStart(text, j) && openQuote(text[:j]) < 0 {
					stack = append(stack, open{l, j})
				}
				j++
			case c == ' ' || c == '\t':
				j++
			case c == '#' && tokenStart(text, j):
				j = len(text)
			case c == ']' || c == '}':
				stack = stack[:len(stack)-1]
				if len(stack) == 0 {
					return syntaxSpot{}, false // it closes: the error is elsewhere
				}
				item = true
				j++
			case c == ',' || c == ':':
				item = false
				j++
			case item:
				return syntaxSpot{line: l, col: t.col(l, j),
					hint: `a "," is missing before this item of the flow collection`}, true
			case c == '[' || c == '{':
				stack = append(stack, open{l, j})
				j++
			case c == '"' || c == '\'':
				e := closingQuote(text, j)
				if e < 0 {
					return syntaxSpot{}, false // a quoted scalar across lines: leave it
				}
				j, item = e+1, true
			default:
				j, item = plainEnd(text, j), true
			}
		}
		if len(stack) == 0 && l == line {
			return syntaxSpot{}, false
		}
	}
	return syntaxSpot{}, false
}

// closingQuote is the offset of the quote closing the one at text[i], -1
// when it is not on this line.
func closingQuote(text []byte, i int) int {
	q := text[i]
	for j := i + 1; j < len(text); j++ {
		switch {
		case q == '"' && text[j] == '\\':
			j++
		case text[j] == q && q == '\'' && j+1 < len(text) && text[j+1] == '\'':
			j++
		case text[j] == q:
			return j
		}
	}
	return -1
}

// plainEnd is where a plain scalar starting at text[i] inside a flow
// collection ends.
func plainEnd(text []byte, i int) int {
	for ; i < len(text); i++ {
		switch c := text[i]; {
		case c == ',' || c == '[' || c == ']' || c == '{' || c == '}':
			return i
		case c == ':' && (i+1 == len(text) || bytes.IndexByte([]byte(" ,[]{}"), text[i+1]) >= 0):
			return i
		case c == '#' && i > 0 && text[i-1] == ' ':
			return i
		}
	}
	return i
}

func closer(c byte) byte {
	if c == '{' {
		return '}'
	}
	return ']'
}

// blockLine reports content that reads as a line of block structure: a
// list item or a "key: value" with a plain key.
func blockLine(c []byte) bool {
	if bytes.HasPrefix(c, []byte("- ")) {
		return true
	}
	if bytes.ContainsAny(c[:1], "\"'[]{},") {
		return false
	}
	i := bytes.Index(c, []byte(": "))
	return i > 0 && !bytes.ContainsAny(c[:i], "\"'[]{},") || bytes.HasSuffix(c, []byte(":"))
}
