package manifest

import (
	"bytes"
	"sync"

	yaml "go.yaml.in/yaml/v3"
)

// lazySrc is the document an object was decoded from by the fast path. The
// position tree is built from it only when a position is asked for, which
// for a clean manifest is never.
type lazySrc struct {
	file string // the file it came from; re-read when data is nil
	Data []byte
	off  int // byte offset of the document in file
	n    int // its length
	line int // file line of its first byte

	once  sync.Once
	root  *yaml.Node
	lines *lineMap
}

func newLazy(file string, c Chunk) *lazySrc {
	return &lazySrc{file: file, Data: c.Data, off: c.off, n: len(c.Data), line: c.Line}
}

// Tree returns the position tree and line map, building them on first use.
// It returns a nil root when the document cannot be read or parsed again
// (the file changed meanwhile); positions then fall back to the document's
// first line.
func (o *Object) Tree() (*yaml.Node, *lineMap) {
	if o.Root != nil || o.Lazy == nil {
		return o.Root, o.Lines
	}
	z := o.Lazy
	z.once.Do(func() {
		data := z.Data
		if data == nil {
			// read as the first time: a regular file, bounded (the
			// file may have been replaced since)
			all, err := readFile(z.file, "")
			if err != nil || z.off+z.n > len(all) {
				return
			}
			data = all[z.off : z.off+z.n]
		}
		n, _, err := DecodeYAML(data)
		if err != nil || n == nil || len(n.Content) == 0 {
			return
		}
		z.root, z.lines = n.Content[0], NewLineMap(Chunk{Data: data, Line: z.line, off: z.off})
	})
	return z.root, z.lines
}

// firstContent is the position of the document's first line that is not
// blank or a comment.
func (z *lazySrc) firstContent() Pos {
	line := z.line
	for rest := z.Data; len(rest) > 0; line++ {
		l := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			l, rest = rest[:i], rest[i+1:]
		} else {
			rest = nil
		}
		t := bytes.TrimLeft(l, " ")
		if len(bytes.TrimSpace(t)) == 0 || t[0] == '#' {
			continue
		}
		return Pos{Line: line, Col: len(l) - len(t) + 1}
	}
	return Pos{Line: z.line, Col: 1}
}
