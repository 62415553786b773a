package manifest

import (
	"bytes"
	"strings"
	"unicode/utf8"

	yaml "go.yaml.in/yaml/v3"
)

// yaml.v3 reports a syntax error at the line of libyaml's context mark when
// there is one: the start of the block, flow collection or scalar being
// parsed, which can be many lines above the mistake. libyaml's problem mark,
// the token it could not fit, is not exported. syntaxPos finds it again.
//
// For errors in the block structure (indentation, a missing colon, text
// after a quoted value) it parses ever longer prefixes of the document: the
// first prefix that fails for a reason other than ending early ends at the
// token the parser could not fit. Unclosed quotes and flow collections,
// characters that cannot start a token and unknown aliases are found by
// reading the reported line.

// maxPrefixParses and maxPrefixBytes bound the parsing spent looking for
// one error's place; a document whose mistake is further away, or a very
// large one, keeps the parser's own line.
const (
	maxPrefixParses = 400
	maxPrefixBytes  = 4 << 20
)

// syntaxSpot is where a syntax error is, relative to its document (1-based
// line and column), and advice on fixing it ("" for none).
type syntaxSpot struct {
	line, col int
	hint      string
}

// syntaxPos finds the place of the yaml.v3 error msg in document data, which
// yaml.v3 reported at line (1-based, relative to data). ok is false when it
// cannot do better than line.
func syntaxPos(data []byte, line int, msg string) (syntaxSpot, bool) {
	t := newDocText(data)
	switch {
	case strings.Contains(msg, "found unexpected end of stream"):
		return t.unclosedQuote(line)
	case strings.HasPrefix(msg, "did not find expected ',' or"):
		return t.flowError(line)
	case strings.Contains(msg, "cannot start any token"):
		return t.badTokenStart(line)
	case strings.HasPrefix(msg, "unknown anchor "):
		return t.unknownAlias(msg)
	}
	return t.blockError(line)
}

// docText is a document cut into lines ("\n" ends a line, as in files).
type docText struct {
	data  []byte
	start []int // byte offset of each line; start[i] is line i+1
	// parses and parsed count the prefixes parsed and their bytes.
	parses, parsed int
}

func newDocText(data []byte) *docText {
	t := &docText{data: data, start: []int{0}}
	for i, b := range data {
		if b == '\n' {
			t.start = append(t.start, i+1)
		}
	}
	return t
}

func (t *docText) lines() int { return len(t.start) }

// text is line l without its line break.
func (t *docText) text(l int) []byte {
	s := t.start[l-1]
	e := len(t.data)
	if l < len(t.start) {
		e = t.start[l] - 1
	}
	return bytes.TrimSuffix(t.data[s:e], []byte("\r"))
}

// indent is the number of spaces line l starts with.
func (t *docText) indent(l int) int {
	s := t.text(l)
	return len(s) - len(bytes.TrimLeft(s, " "))
}

// col is the 1-based column of byte offset i of line l.
func (t *docText) col(l, i int) int { return utf8.RuneCount(t.text(l)[:i]) + 1 }

// prefixError parses data[:end] and returns yaml.v3's message without its
// "yaml: line N: " head, "" when that prefix parses. ok is false when the
// budget for parsing is spent.
func (t *docText) prefixError(end int) (_ string, ok bool) {
	if t.parses >= maxPrefixParses || t.parsed+end > maxPrefixBytes {
		return "", false
	}
	t.parses++
	t.parsed += end
	msg := ""
	func() {
		defer func() {
			if recover() != nil {
				msg = ""
			}
		}()
		var n yaml.Node
		if err := yaml.Unmarshal(t.data[:end], &n); err != nil {
			msg = err.Error()
		}
	}()
	if m := yamlLineRE().FindStringSubmatch(msg); m != nil {
		return m[2], true
	}
	return strings.TrimPrefix(msg, "yaml: "), true
}

// endsEarly reports messages a cut-off prefix can cause on its own: an
// unclosed quote or flow collection, a key whose colon is not read yet.
func endsEarly(msg string) bool {
	return strings.Contains(msg, "end of stream") || strings.HasPrefix(msg, "did not find expected ',' or") ||
		strings.Contains(msg, "did not find expected node content")
}
