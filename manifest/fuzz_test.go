package manifest

import (
	"bytes"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
	"time"
)

// fuzzSeeds are valid and broken manifests the fuzzers start from, next to
// every file of the testdata/bad corpus.
var fuzzSeeds = []string{
	twoDocs,
	"apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: a}\n- apiVersion: v1\n  kind: Service\n  metadata:\n    name: b\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: &l {app: web}\n  annotations:\n    <<: *l\n    extra: x\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\ndata:\n  script: |\n    #!/bin/sh\n    echo hi\n  folded: >-\n    one\n    two\n",
	`{"apiVersion": "v1", "kind": "ConfigMap", "metadata": {"name": "c"}, "data": {"k": "v"}}`,
	"apiVersion: v1\r\nkind: ConfigMap\r\nmetadata:\r\n  name: crlf\r\n",
	"---\n...\n--- # comment\napiVersion: v1\nkind: Secret\nmetadata: {name: s}\nstringData: {a: \"b\"}\n...\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata: &m {name: a, <<: *m}\n",
	// inputs that crashed yaml.v3 or yaml.v2 in the past
	"a:\n.\n-\n", "#\n-\n-\n0", "0: [:&", "\"\\0\\\r\n", " \ufeff\n", "? \ufeff: \ufeff\n", "{{},<<}",
	"  0: [\n] 0", "? ? \"\n\" 0", "0:\n  0: [0\n] 0", "---\n- - - - - - - - {\n0}0\n---",
	"40y::\r\r\r\r\r\r\r\r<<:\r\r\r\r\r\r\r-  - #\r?\r#\r\r#-\r -\r?\r#\r\r#--",
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n--- {apiVersion: v1, kind: ConfigMap, metadata: {name: b}}\n",
	"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  annotations: {d: \"x\u2028y\u0085z\"}\r  x: 1\rdata:\n  k: v\n",
}

// checkScalarAt checks that the source at p starts with the text of n, when
// n is a plain scalar without anchor or tag (its text is verbatim there;
// only its first word, as a multi-line plain scalar is folded).
func checkScalarAt(t *testing.T, src [][]byte, o *Object, path []string, what string, n *yaml.Node, p Pos) {
	t.Helper()
	if n == nil || n.Kind != yaml.ScalarNode || n.Style != 0 || n.Anchor != "" || n.Value == "" {
		return
	}
	word := n.Value
	if i := strings.IndexFunc(word, func(r rune) bool {
		return r == ' ' || r == '\t' || r == '\r' || r == '\n' || r == 0x85 || r == 0x2028 || r == 0x2029
	}); i >= 0 {
		word = word[:i]
	}
	if p.Line < 1 || p.Line > len(src) || word == "" {
		return // reported elsewhere
	}
	line := []rune(string(src[p.Line-1]))
	if p.Col <= len(line) && (line[p.Col-1] == '!' || line[p.Col-1] == '&') {
		return // a tag or anchor: yaml.v3 places the node at its properties
	}
	if p.Col > len(line) || !strings.HasPrefix(string(line[p.Col-1:]), word) {
		at := ""
		if p.Col <= len(line) {
			at = string(line[p.Col-1:])
		}
		t.Errorf("%s(%v) of %s = %d:%d, but %q is not there: %.40q", what, path, o, p.Line, p.Col, word, at)
	}
}

func addCorpusSeeds(f *testing.F) {
	for _, s := range fuzzSeeds {
		f.Add([]byte(s))
	}
	files, err := filepath.Glob(filepath.Join("..", "testdata", "bad", "*"))
	if err != nil {
		f.Fatal(err)
	}
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if len(data) > 4096 {
			// big seeds make the fuzzer spend its time minimizing them
			data = data[:256]
		}
		f.Add(data)
	}
}

// FuzzParse checks that Parse never panics and that every position it hands
// out, for problems and for every field of every object, is inside the input.
func FuzzParse(f *testing.F) {
	addCorpusSeeds(f)
	f.Fuzz(checkParse)
}

func checkParse(t *testing.T, data []byte) {
	defer hangGuard()()
	objs, probs := Parse("fuzz.yaml", data)
	lines := bytes.Count(data, []byte("\n")) + 1
	for _, p := range probs {
		if p.Line < 1 || p.Col < 1 || p.Line > lines+1 {
			t.Errorf("problem at %d:%d outside the input (%d lines): %v", p.Line, p.Col, lines, p)
		}
		if p.File != "fuzz.yaml" || p.Rule == "" || p.Message == "" {
			t.Errorf("incomplete problem %+v", p)
		}
	}
	// Where the input has no byte order mark (whose column editors and
	// yaml.v3 count differently), check that positions of plain
	// scalars point at their text.
	checkText := !bytes.Contains(data, []byte("\ufeff"))
	srcLines := bytes.Split(data, []byte("\n"))
	for _, o := range objs {
		if o.Content == nil || o.Kind == "" || o.APIVersion == "" {
			t.Errorf("object without identity: %+v", o)
		}
		inside := func(what string, path []string, p Pos) {
			if p.Line < 1 || p.Line > lines || p.Col < 1 {
				t.Errorf("%s %v of %s = %d:%d, outside the input (%d lines)", what, path, o, p.Line, p.Col, lines)
			}
		}
		inside("Start", nil, o.Start())
		budget := 2000
		var walk func(path []string, v any)
		walk = func(path []string, v any) {
			if budget <= 0 {
				return
			}
			budget--
			if _, ok := o.Get(path...); !ok {
				t.Errorf("Get(%v) of %s: not found, but it is in Content", path, o)
			}
			inside("Pos", path, o.Pos(path...))
			inside("KeyPos", path, o.KeyPos(path...))
			start, end := o.Span(path...)
			inside("Span", path, start)
			if end.Line != start.Line || end.Col < start.Col {
				t.Errorf("Span(%v) of %s = %v..%v", path, o, start, end)
			}
			o.Has(path...)
			if checkText {
				key, val, full := o.lookup(path)
				if full {
					checkScalarAt(t, srcLines, o, path, "Pos", val, o.Pos(path...))
				}
				checkScalarAt(t, srcLines, o, path, "KeyPos", key, o.KeyPos(path...))
			}
			switch c := v.(type) {
			case map[string]any:
				for k, e := range c {
					walk(append(path[:len(path):len(path)], k), e)
				}
			case []any:
				for i, e := range c {
					walk(append(path[:len(path):len(path)], strconv.Itoa(i)), e)
				}
			}
		}
		walk(nil, o.Content)
	}
}

// FuzzSplit checks that SplitDocuments accounts for every input line: the
// chunks, in order, with one separator line between each two, make up the
// whole input, and each chunk says on which line it starts.
func FuzzSplit(f *testing.F) {
	addCorpusSeeds(f)
	f.Add([]byte("---"))
	f.Add([]byte("a: 1\n---\r\nb: 2\n...\n--- #c\n---x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		// starts[i] is the offset of line i+1.
		starts := []int{0}
		for i, b := range data {
			if b == '\n' {
				starts = append(starts, i+1)
			}
		}
		lineAt := func(off int) int { // 1-based line of a line-start offset, 0 if not one
			for i, s := range starts {
				if s == off {
					return i + 1
				}
			}
			return 0
		}
		chunks := SplitDocuments(data)
		if len(chunks) == 0 {
			t.Fatal("no chunks")
		}
		off, prevLine := 0, 0
		for i, c := range chunks {
			if i > 0 {
				// one separator line between the previous chunk and this one
				l := lineAt(off)
				if l == 0 {
					t.Fatalf("chunk %d ends at offset %d, not at a line start", i-1, off)
				}
				end := len(data)
				if l < len(starts) {
					end = starts[l]
				}
				if !isSeparator(bytes.TrimRight(data[off:end], "\r\n")) {
					t.Fatalf("line %d between chunks %d and %d is not a separator: %q", l, i-1, i, data[off:end])
				}
				off = end
			}
			if c.Line <= prevLine || c.Line < 1 || c.Line > len(starts)+1 {
				t.Fatalf("chunk %d at line %d (previous %d, %d lines)", i, c.Line, prevLine, len(starts))
			}
			if c.Line == len(starts)+1 {
				// after a separator on the last line, without a newline:
				// only an empty chunk at the very end can be there
				if off != len(data) || len(c.Data) != 0 || i != len(chunks)-1 {
					t.Fatalf("chunk %d at line %d, after the last line", i, c.Line)
				}
			} else if lineAt(off) != c.Line {
				t.Fatalf("chunk %d says line %d, starts at offset %d (line %d)", i, c.Line, off, lineAt(off))
			}
			if !bytes.Equal(data[off:off+len(c.Data)], c.Data) {
				t.Fatalf("chunk %d is not the input at offset %d", i, off)
			}
			// no separator is left inside a chunk
			for _, l := range bytes.SplitAfter(c.Data, []byte("\n")) {
				if isSeparator(bytes.TrimRight(l, "\r\n")) {
					t.Fatalf("chunk %d contains separator line %q", i, l)
				}
			}
			off += len(c.Data)
			prevLine = c.Line
		}
		if off != len(data) {
			t.Fatalf("chunks cover %d of %d bytes", off, len(data))
		}
	})
}

// hangGuard crashes the process when one fuzz input takes longer than any
// small input should; the fuzzer then saves the input as a crasher.
// Call as: defer hangGuard()().
func hangGuard() func() {
	t := time.AfterFunc(10*time.Second, func() { panic("one input took more than 10s: hang or blow-up") })
	return func() { t.Stop() }
}
