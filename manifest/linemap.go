package manifest

import (
	"bytes"
	"unicode/utf8"
)

// lineMap converts yaml.v3 positions inside a chunk into file positions.
//
// Files, editors, GitHub annotations and the rest of this package count
// lines by "\n" only. yaml.v3 also starts a new line at a lone "\r" and at
// NEL (U+0085), LS (U+2028) and PS (U+2029), so after one of those (a
// copy-pasted LS inside a quoted string is enough) its line numbers run ahead
// of the file's. For the common chunk without such characters the map is just
// the chunk's line offset.
type lineMap struct {
	off int // file line of the chunk's first line, minus 1
	// When the chunk has other line breaks: for yaml line i (1-based,
	// relative to the chunk), the file line and how many characters of that
	// file line come before it. Index 0 is unused.
	line, col []int
}

func NewLineMap(c Chunk) *lineMap {
	m := &lineMap{off: c.Line - 1}
	if !hasOtherBreaks(c.Data) {
		return m
	}
	data := c.Data
	i := 0
	if bytes.HasPrefix(data, []byte("\xef\xbb\xbf")) {
		i = 3 // yaml.v3 drops the byte order mark; it is no column
	}
	fileLine, chars := c.Line, 0
	m.line, m.col = []int{0, fileLine}, []int{0, 0}
	for i < len(data) {
		r, size := utf8.DecodeRune(data[i:])
		switch {
		case r == '\r' && i+1 < len(data) && data[i+1] == '\n':
			size = 2
			fileLine, chars = fileLine+1, 0
		case r == '\n':
			fileLine, chars = fileLine+1, 0
		case r == '\r' || r == 0x85 || r == 0x2028 || r == 0x2029:
			chars++ // a character on the file's line, a line break to yaml.v3
		default:
			chars++
			i += size
			continue
		}
		m.line = append(m.line, fileLine)
		m.col = append(m.col, chars)
		i += size
	}
	return m
}

// hasOtherBreaks reports line breaks yaml.v3 counts and "\n" does not.
func hasOtherBreaks(data []byte) bool {
	for i := 0; ; {
		j := bytes.IndexByte(data[i:], '\r')
		if j < 0 {
			break
		}
		i += j + 1
		if i == len(data) || data[i] != '\n' {
			return true
		}
	}
	return bytes.Contains(data, []byte("\u0085")) || bytes.Contains(data, []byte("\u2028")) ||
		bytes.Contains(data, []byte("\u2029"))
}

// pos converts a 1-based yaml.v3 line and column (of a node, relative to the
// chunk) into a file position. A nil map converts nothing.
func (m *lineMap) pos(line, col int) Pos {
	if m == nil {
		return Pos{Line: line, Col: col}
	}
	if m.line == nil || line < 1 {
		return Pos{Line: line + m.off, Col: col}
	}
	if line >= len(m.line) {
		line = len(m.line) - 1
	}
	return Pos{Line: m.line[line], Col: m.col[line] + col}
}
