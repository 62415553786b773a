package manifest

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// Chunk is one YAML document of a stream: its bytes and the 1-based line
// its first byte is on.
type Chunk struct {
	Data []byte
	Line int
	off  int // byte offset of data in the file
}

// SplitDocuments cuts a YAML stream at "---" lines the way kubectl does: a
// Line starting with "---" followed by nothing but an optional comment. A
// "..." line ends a document too.
func SplitDocuments(data []byte) []Chunk {
	var out []Chunk
	start, startLine, line := 0, 1, 1
	for i := 0; i < len(data); {
		end := bytes.IndexByte(data[i:], '\n')
		next := len(data)
		if end >= 0 {
			next = i + end + 1
		}
		l := bytes.TrimRight(data[i:next], "\r\n")
		if isSeparator(l) {
			out = append(out, Chunk{Data: data[start:i], Line: startLine, off: start})
			start, startLine = next, line+1
		}
		i = next
		line++
	}
	out = append(out, Chunk{Data: data[start:], Line: startLine, off: start})
	return out
}

func isSeparator(l []byte) bool {
	if bytes.Equal(l, []byte("...")) {
		return true
	}
	if !bytes.HasPrefix(l, []byte("---")) {
		return false
	}
	rest := bytes.TrimSpace(l[3:])
	return len(rest) == 0 || rest[0] == '#'
}

// checkText refuses input that is not UTF-8 text, naming where it goes wrong.
func checkText(file string, data []byte) *Problem {
	if bytes.HasPrefix(data, []byte{0xFF, 0xFE}) || bytes.HasPrefix(data, []byte{0xFE, 0xFF}) {
		return &Problem{File: file, Pos: Pos{1, 1}, Rule: "invalid-yaml",
			Message: "file is UTF-16 encoded; save it as UTF-8"}
	}
	if i := bytes.IndexByte(data, 0); i >= 0 {
		return &Problem{File: file, Pos: OffsetPos(data, i), Rule: "invalid-yaml",
			Message: fmt.Sprintf("binary data (NUL byte at offset %d): this is not a YAML or JSON file", i)}
	}
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, size := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && size <= 1 {
				break
			}
			i += size
		}
		return &Problem{File: file, Pos: OffsetPos(data, i), Rule: "invalid-yaml",
			Message: fmt.Sprintf("invalid UTF-8 (byte 0x%02x at offset %d); YAML files must be UTF-8 text", data[i], i)}
	}
	return nil
}

// OffsetPos converts a byte offset to a 1-based line and column (columns
// count characters).
func OffsetPos(data []byte, off int) Pos {
	line := 1 + bytes.Count(data[:off], []byte("\n"))
	ls := bytes.LastIndexByte(data[:off], '\n') + 1
	return Pos{Line: line, Col: 1 + utf8.RuneCount(data[ls:off])}
}
