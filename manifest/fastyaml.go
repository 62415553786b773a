package manifest

import (
	"bytes"
	"strings"
	"sync"
	"unicode/utf8"
)

// fastDecode decodes the block-style YAML that nearly every Kubernetes
// manifest is written in, straight into plain values, many times faster than
// building a yaml.v3 node tree. It knows a strict subset of YAML: block
// mappings and sequences, plain and quoted one-line scalars, plain and
// single-quoted scalars wrapped over lines without blank lines (as kubectl
// kustomize writes long strings), one-line flow collections, and literal
// block scalars. On anything else (anchors, tags, multi-line flow
// collections or double-quoted scalars, duplicate keys, errors of any kind) it
// gives up and returns ok=false, and the caller decodes the document with
// yaml.v3, which also reports problems with their positions. When it
// succeeds its result is exactly what the yaml.v3 path produces; a
// differential fuzz test holds it to that.
func fastDecode(data []byte) (map[string]any, bool) {
	// Tabs are whitespace in some places of YAML and content in others;
	// the few manifests with tabs go to yaml.v3.
	if hasOddBreaks(data) || bytes.IndexByte(data, '\t') >= 0 || !printable(data) {
		return nil, false
	}
	p := parsers.Get().(*fastParser)
	defer p.release()
	if !p.split(data) {
		return nil, false
	}
	p.skipBlank()
	if p.i >= len(p.lines) {
		return nil, false
	}
	first := p.lines[p.i]
	if first.indent != 0 || startsSeq(first.text) {
		return nil, false
	}
	m, ok := p.mapping(0)
	if !ok {
		return nil, false
	}
	p.skipBlank()
	if p.i != len(p.lines) {
		return nil, false
	}
	return m, true
}

type fastLine struct {
	indent int
	text   []byte // content after the indentation, trailing spaces and \r removed
	// padded is true when spaces or tabs were trimmed from the end, which
	// matters inside literal block scalars.
	padded bool
}

type fastParser struct {
	lines []fastLine
	i     int
	depth int
	// keys are the keys intern made, kept with the parser in its pool.
	keys map[string]string
	// finalNL is whether the input ends with a line break, which decides
	// the last line break of a block scalar that runs to the end.
	finalNL bool
}

// maxFastDepth bounds nesting; deeper documents go to yaml.v3 and its limits.
const maxFastDepth = 64

// printable reports whether data is valid UTF-8 made only of characters
// YAML allows: no C0 controls but tab and line breaks, no DEL, no C1
// controls, no U+FFFE/U+FFFF. yaml.v3 rejects the rest, with a position.
func printable(data []byte) bool {
	for i := 0; i < len(data); {
		c := data[i]
		if c < 0x80 {
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError || (r >= 0x80 && r <= 0x9f) || r == 0xfffe || r == 0xffff {
			return false
		}
		i += size
	}
	return true
}

// hasOddBreaks finds line breaks yaml.v3 knows but the fast path does not:
// a lone \r, NEL, LS, PS. A BOM is left to yaml.v3 as well.
func hasOddBreaks(data []byte) bool {
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		return true
	}
	for i := bytes.IndexByte(data, '\r'); i >= 0; {
		if i+1 >= len(data) || data[i+1] != '\n' {
			return true
		}
		j := bytes.IndexByte(data[i+1:], '\r')
		if j < 0 {
			break
		}
		i += 1 + j
	}
	return bytes.Contains(data, []byte("\xc2\x85")) || bytes.Contains(data, []byte("\xe2\x80\xa8")) || bytes.Contains(data, []byte("\xe2\x80\xa9"))
}

func (p *fastParser) split(data []byte) bool {
	p.finalNL = len(data) > 0 && data[len(data)-1] == '\n'
	if n := bytes.Count(data, []byte("\n")) + 1; cap(p.lines) < n {
		p.lines = make([]fastLine, 0, n)
	}
	for len(data) > 0 {
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		l = bytes.TrimSuffix(l, []byte("\r"))
		trimmed := bytes.TrimRight(l, " \t")
		padded := len(trimmed) != len(l)
		l = trimmed
		ind := 0
		for ind < len(l) && l[ind] == ' ' {
			ind++
		}
		if ind < len(l) && l[ind] == '\t' {
			return false // tab in indentation: an error yaml.v3 will report
		}
		text := l[ind:]
		if len(text) > 0 && (text[0] == '%' || bytes.HasPrefix(text, []byte("---")) || bytes.HasPrefix(text, []byte("..."))) && ind == 0 {
			return false
		}
		p.lines = append(p.lines, fastLine{indent: ind, text: text, padded: padded})
	}
	return true
}

// parsers keeps fastParsers between documents: their line tables are
// the largest allocation of the fast path and are never kept by what it
// returns.
var parsers = sync.Pool{New: func() any { return &fastParser{} }}

// release returns p to parsers, its lines cleared so that no file's bytes
// stay alive through it.
func (p *fastParser) release() {
	if cap(p.lines) > maxPooledLines {
		return // a huge document: let it go rather than hold it
	}
	clear(p.lines[:cap(p.lines)])
	*p = fastParser{lines: p.lines[:0], keys: p.keys}
	parsers.Put(p)
}

// intern is the key b as a string, the same string for the same key
// across the documents a pooled parser reads (a set of manifests repeats
// a few hundred keys). Its strings are copies: no file's bytes stay alive
// through them.
func (p *fastParser) intern(b []byte) string {
	if s, ok := p.keys[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(b) <= maxInternedKeyBytes && len(p.keys) < maxInternedKeys {
		if p.keys == nil {
			p.keys = make(map[string]string, 64)
		}
		p.keys[s] = s
	}
	return s
}

// maxInternedKeys and maxInternedKeyBytes bound what intern keeps.
const (
	maxInternedKeys     = 1024
	maxInternedKeyBytes = 64
)

// maxPooledLines bounds the line table a pooled parser keeps.
const maxPooledLines = 1 << 14

// skipBlank moves past empty and comment-only lines.
func (p *fastParser) skipBlank() {
	for p.i < len(p.lines) {
		t := p.lines[p.i].text
		if len(t) != 0 && t[0] != '#' {
			return
		}
		p.i++
	}
}

// next returns the next content line, or nil.
func (p *fastParser) next() *fastLine {
	p.skipBlank()
	if p.i >= len(p.lines) {
		return nil
	}
	return &p.lines[p.i]
}

func startsSeq(t []byte) bool {
	return len(t) > 0 && t[0] == '-' && (len(t) == 1 || t[1] == ' ')
}

// mapping parses a block mapping whose keys are at indent ind.
func (p *fastParser) mapping(ind int) (map[string]any, bool) {
	if p.depth++; p.depth > maxFastDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	m := make(map[string]any, 4)
	for {
		l := p.next()
		if l == nil || l.indent < ind {
			return m, true
		}
		if l.indent > ind || startsSeq(l.text) {
			return nil, false
		}
		plain, key, rest, ok := splitKey(l.text)
		if plain != nil {
			key = p.intern(plain)
		}
		if !ok {
			return nil, false
		}
		if _, dup := m[key]; dup || key == "<<" {
			return nil, false
		}
		p.i++
		v, ok := p.value(ind, rest, true)
		if !ok {
			return nil, false
		}
		m[key] = v
	}
}

// sequence parses a block sequence whose dashes are at indent ind.
func (p *fastParser) sequence(ind int) ([]any, bool) {
	if p.depth++; p.depth > maxFastDepth {
		return nil, false
	}
	defer func() { p.depth-- }()
	s := make([]any, 0, 2)
	for {
		l := p.next()
		if l == nil || l.indent < ind {
			return s, true
		}
		if l.indent > ind || !startsSeq(l.text) {
			if l.indent == ind {
				return s, true // the parent mapping continues
			}
			return nil, false
		}
		rest := l.text[1:]
		sp := 0
		for sp < len(rest) && rest[sp] == ' ' {
			sp++
		}
		rest = rest[sp:]
		if len(rest) == 0 || rest[0] == '#' {
			p.i++
			v, ok := p.value(ind, nil, false)
			if !ok {
				return nil, false
			}
			s = append(s, v)
			continue
		}
		// "- key: v" or "- - x": the rest of the line is a nested block
		// node that starts at the column after the dash.
		col := ind + 1 + sp
		if startsSeq(rest) {
			l.indent, l.text = col, rest
			v, ok := p.sequence(col)
			if !ok {
				return nil, false
			}
			s = append(s, v)
			continue
		}
		if _, _, _, isKey := splitKey(rest); isKey && rest[0] != '{' && rest[0] != '[' && rest[0] != '"' && rest[0] != '\'' {
			l.indent, l.text = col, rest
			v, ok := p.mapping(col)
			if !ok {
				return nil, false
			}
			s = append(s, v)
			continue
		}
		if rest[0] == '"' || rest[0] == '\'' {
			if _, _, _, isKey := splitKey(rest); isKey {
				return nil, false // a quoted key in compact form: leave it to yaml.v3
			}
		}
		p.i++
		v, ok := p.value(ind, rest, false)
		if !ok {
			return nil, false
		}
		s = append(s, v)
	}
}

// value parses what follows "key:" or "- " on the current line (rest), and
// any block node on the following lines. ind is the indent of the key or
// dash; inMap says whether a same-indent sequence may be the value.
func (p *fastParser) value(ind int, rest []byte, inMap bool) (any, bool) {
	if len(rest) == 0 || rest[0] == '#' {
		l := p.next()
		switch {
		case l == nil || l.indent < ind:
			return nil, true
		case l.indent == ind:
			if inMap && startsSeq(l.text) {
				return p.sequence(ind)
			}
			return nil, true
		case startsSeq(l.text):
			return p.sequence(l.indent)
		default:
			return p.mapping(l.indent)
		}
	}
	var v any
	var ok bool
	switch rest[0] {
	case '|':
		return p.literal(ind, rest)
	case '{', '[':
		var tail []byte
		v, tail, ok = flowNode(rest, p.depth)
		if !ok || !onlyComment(tail) {
			return nil, false
		}
	case '"', '\'':
		var tail []byte
		v, tail, ok = quoted(rest)
		if !ok {
			v, tail, ok = p.quotedLines(ind, rest)
		}
		if !ok || !onlyComment(tail) {
			return nil, false
		}
	default:
		s := stripComment(rest)
		if !plainOK(s, false) {
			return nil, false
		}
		if p.i < len(p.lines) && p.lines[p.i].indent > ind && len(p.lines[p.i].text) > 0 && p.lines[p.i].text[0] != '#' && len(s) == len(rest) {
			return p.plainLines(ind, s) // the very next line goes on with it
		}
		v, ok = resolvePlain(string(s))
		if !ok {
			return nil, false
		}
	}
	// A more-indented line after a scalar would continue it (multi-line
	// plain scalar) or be an error: either way, yaml.v3's business.
	if l := p.next(); l != nil && l.indent > ind {
		return nil, false
	}
	return v, true
}

// plainLines parses a plain scalar that goes on over the following lines
// indented more than ind, as kubectl kustomize writes long strings (the
// descriptions of CRDs): the lines joined by single spaces, a string.
// Blank or comment lines inside it, a line that could not continue a plain
// scalar, and a value that would not be a string are yaml.v3's business.
func (p *fastParser) plainLines(ind int, first []byte) (any, bool) {
	var b strings.Builder
	b.Write(first)
	for p.i < len(p.lines) {
		l := &p.lines[p.i]
		if len(l.text) == 0 || l.text[0] == '#' {
			if l.indent > ind || len(l.text) == 0 {
				return nil, false // folded as a line break, or a comment inside
			}
			break
		}
		if l.indent <= ind {
			break
		}
		if !plainGoesOn(l.text) {
			return nil, false
		}
		b.WriteByte(' ')
		b.Write(l.text)
		p.i++
	}
	s := b.String()
	if v, ok := resolvePlain(s); !ok || v != any(s) {
		return nil, false
	}
	return s, true
}

// plainGoesOn reports whether t, a line more indented than its key, goes
// on with a plain scalar: indicators are indicators only where a scalar
// starts, so any text but a comment, "- " or "? " or ":" first (which this
// decoder leaves to yaml.v3), a ": " or a " #" does.
func plainGoesOn(t []byte) bool {
	if len(t) == 0 || t[0] == '#' || t[0] == ':' || ((t[0] == '-' || t[0] == '?') && (len(t) == 1 || t[1] == ' ')) {
		return false
	}
	return !bytes.Contains(t, []byte(": ")) && !bytes.HasSuffix(t, []byte(":")) && !bytes.Contains(t, []byte(" #")) && utf8.Valid(t)
}

// quotedLines parses a quoted scalar that rest opens and the following
// lines, indented more than ind, close, as kubectl kustomize wraps a long
// string it quotes: the line breaks fold to single spaces (the lines come
// without their indentation and trailing spaces). A blank line inside it,
// which would fold to a line break, and a double-quoted line ending in a
// backslash (an escaped line break) are yaml.v3's business.
func (p *fastParser) quotedLines(ind int, rest []byte) (any, []byte, bool) {
	acc := append([]byte(nil), rest...)
	for p.i < len(p.lines) {
		l := &p.lines[p.i]
		if len(l.text) == 0 || l.indent <= ind || (rest[0] == '"' && bytes.HasSuffix(acc, []byte("\\"))) {
			return nil, nil, false
		}
		acc = append(append(acc, ' '), l.text...)
		p.i++
		if v, tail, ok := quoted(acc); ok {
			return v, tail, true
		}
	}
	return nil, nil, false
}

// literal parses a "|", "|-" or "|+" block scalar.
func (p *fastParser) literal(ind int, header []byte) (any, bool) {
	h := stripComment(header)
	chomp := byte(0)
	switch string(h) {
	case "|":
	case "|-":
		chomp = '-'
	case "|+":
		chomp = '+'
	default:
		return nil, false
	}
	var parts []string
	blockInd := -1
	trailing := 0 // empty lines seen since the last content line
	for p.i < len(p.lines) {
		l := p.lines[p.i]
		if l.padded {
			return nil, false // whitespace that a literal would keep
		}
		if len(l.text) == 0 {
			trailing++
			p.i++
			continue
		}
		if blockInd < 0 {
			if l.indent <= ind {
				break
			}
			blockInd = l.indent
		}
		if l.indent < blockInd {
			if l.indent > ind {
				return nil, false
			}
			break
		}
		for ; trailing > 0; trailing-- {
			parts = append(parts, "")
		}
		parts = append(parts, strings.Repeat(" ", l.indent-blockInd)+string(l.text))
		p.i++
	}
	if blockInd < 0 {
		return nil, false // empty block scalar: rare, leave it to yaml.v3
	}
	if p.i >= len(p.lines) && !p.finalNL {
		return nil, false // runs to an end without a line break
	}
	s := strings.Join(parts, "\n")
	switch chomp {
	case 0:
		s += "\n"
	case '+':
		s += "\n" + strings.Repeat("\n", trailing)
	}
	return s, true
}

// maxKeyBytes stays under YAML's 1024-character limit on implicit keys.
const maxKeyBytes = 1000

// splitKey splits "key: rest" (or "key:" at the end of the line). A
// plain key is plain, its bytes in t, for the caller to make a string of
// only when it keeps it; a quoted key is quotedKey, already decoded.
func splitKey(t []byte) (plain []byte, quotedKey string, rest []byte, ok bool) {
	if len(t) == 0 {
		return nil, "", nil, false
	}
	if t[0] == '"' || t[0] == '\'' {
		v, tail, ok := quoted(t)
		if !ok || len(t)-len(tail) > maxKeyBytes || len(tail) == 0 || tail[0] != ':' || (len(tail) > 1 && tail[1] != ' ') {
			return nil, "", nil, false
		}
		s, _ := v.(string)
		return nil, s, trimLeftSpace(tail[1:]), true
	}
	if !plainStart(t[0], t) {
		return nil, "", nil, false
	}
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case ':':
			if i+1 == len(t) || t[i+1] == ' ' {
				if i > maxKeyBytes {
					return nil, "", nil, false
				}
				key := t[:i]
				for len(key) > 0 && (key[len(key)-1] == ' ' || key[len(key)-1] == '\t') {
					key = key[:len(key)-1]
				}
				if len(key) == 0 || bytes.Contains(key, []byte(" #")) {
					return nil, "", nil, false
				}
				return key, "", trimLeftSpace(t[i+1:]), true
			}
		case '#':
			if i > 0 && t[i-1] == ' ' {
				return nil, "", nil, false
			}
		}
	}
	return nil, "", nil, false
}

func trimLeftSpace(b []byte) []byte { return bytes.TrimLeft(b, " \t") }
