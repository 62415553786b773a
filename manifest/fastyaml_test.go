package manifest

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// slowDecode is the reference: yaml.v3 and the node decoder.
func slowDecode(data []byte) (map[string]any, bool) {
	n, next, err := DecodeYAML(data)
	if err != nil || next != nil || n == nil || len(n.Content) == 0 || n.Content[0].Kind != yaml.MappingNode {
		return nil, false
	}
	root := n.Content[0]
	d := NewDecoder("", NewLineMap(Chunk{Data: data, Line: 1}), CountNodes(root))
	m, _ := d.Value(root, 0).(map[string]any)
	if d.exhausted || len(d.problems) > 0 {
		return nil, false
	}
	return m, true
}

// checkFast fails when the fast path succeeds with a result that differs
// from yaml.v3's.
func checkFast(t testing.TB, data []byte) bool {
	fast, ok := fastDecode(data)
	if !ok {
		return false
	}
	slow, sok := slowDecode(data)
	if !sok {
		t.Fatalf("fast path accepted input yaml.v3 rejects:\n%.2000s", data)
	}
	if !equalValues(fast, slow) {
		t.Fatalf("fast path differs from yaml.v3 on:\n%.2000s\nfast: %.2000s\nslow: %.2000s", data, fmt.Sprintf("%#v", fast), fmt.Sprintf("%#v", slow))
	}
	return true
}

func equalValues(a, b any) bool {
	fa, aok := a.(float64)
	fb, bok := b.(float64)
	if aok && bok && math.IsNaN(fa) && math.IsNaN(fb) {
		return true
	}
	return reflect.DeepEqual(a, b)
}

func TestFastDecodeMatchesYAMLv3(t *testing.T) {
	cases := []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n  labels: {app: web, tier: \"fe\"}\ndata:\n  k: v\n  n: \"1\"\n",
		"a: -1\nb: +2\nc: 1.5\nd: 1e3\ne: .5\nf: 1.30.2\ng: 10Gi\nh: 500m\ni: true\nj: False\nk: null\nl: ~\nm:\nn: 0\no: yes\np: no\nq: on\nr: 'it''s'\ns: \"tab\\tq\\\"\\u00e9\"\n",
		"spec:\n  containers:\n  - name: web\n    image: nginx:1.30\n    args:\n    - --port=80\n    - \"--x\"\n    ports:\n    - containerPort: 80\n      protocol: TCP\n  - name: side\n    command: [sh, -c, 'echo hi']\n",
		"a:\n- 1\n- - 2\n  - 3\n-\nb: x # comment\n# full line\nc: \"#not\" # c\n",
		"script: |\n  #!/bin/sh\n  echo hi\n\n    indented\n\nafter: 1\nkeep: |+\n  x\n\nstrip: |-\n  y\nend: 1\n",
		"url: http://x:8080/a\nk8s.io/name: v\n\"quoted key\": 1\nempty: {}\nlist: []\nnested: {a: [1, {b: c}], d: }\n",
		"a: b\r\nc: d\r\n",
		// multi-line plain scalars, as kubectl kustomize wraps long strings
		"description: CreationTimestamp is a timestamp representing the server time when\n  this object was created.\nnext: 1\n",
		"spec:\n  properties:\n    a:\n      description: one\n        two\n          three-4 5\n      type: string\n",
		"list:\n- first line\n  second line\n- {a: 1}\n- k: v w\n    x y\n  j: 2\n",
		"a: 'quoted: long\n  string'\nb: 'it''s\n  ''x'' and\n    y' # c\nc:\n- 'e.g: \"https://v:8200\".\n  z'\n",
		"a: one of (`True`, `False`,\n  `Unknown`).\nb: x\n  'q' \"d\" [1] {2} *s &t !u |v >w %x @y ,z ]\n  -a ?b -\n",
		"a: \"stores\n  status of the\n    PVC.\\nKey names:\\n\\t*\n  Un-prefixed \\\"x\\\"\" # c\nb: 1\n",
		"a: b\n  c\n", "a: 1\n  2\n", "a: \"x\n  y\"\n", "a: b\n  c\nd: e\n  f\n    g\n",
	}
	for _, c := range cases {
		if !checkFast(t, []byte(c)) {
			t.Errorf("fast path gave up on:\n%s", c)
		}
	}
	// inputs the fast path must leave to yaml.v3
	for _, c := range []string{
		"a: &x 1\nb: *x\n", "a: !!str 1\n", "a: [1,\n 2]\n",
		"a: b\n\n  c\n", "a: b\n  :c\n", "a: b\n  ? c\n", "a: b\n  c:\n", "a: 'b\n\n  c'\n", "a: \"b\\\n  c\"\n", "a: \"b\n\n  c\"\n", "a: 'b\nc: d'\n", "a: b\n  # c\n  d\n", "a: b\n  c: d\n", "a: b # x\n  c\n", "a: b\n  c # x\n", "a: b\n  - c\n", "a: 0x1F\n", "a: 017\n",
		"a: 1\na: 2\n", "a:\tb\n", "\ta: 1\n", "a: 2020-01-01\n", "a: .inf\n", "a: >\n  x\n", "? a\n: b\n",
		"- a\n", "a: 99999999999999999999\n", "a: |2\n   x\n", "<<: {a: 1}\n",
	} {
		if _, ok := fastDecode([]byte(c)); ok {
			t.Errorf("fast path should give up on %q", c)
		}
	}
}

// Every manifest in the repository's test data decodes the same both ways.
func TestFastDecodeOnTestdata(t *testing.T) {
	var files []string
	for _, g := range []string{"../testdata/bad/*", "../lint/testdata/*.yaml", "../testdata/script/*.txtar"} {
		m, _ := filepath.Glob(g)
		files = append(files, m...)
	}
	fast := 0
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range SplitDocuments(data) {
			for _, part := range strings.Split(string(c.Data), "\n-- ") {
				if checkFast(t, []byte(part)) {
					fast++
				}
			}
		}
	}
	if fast < 10 {
		t.Errorf("fast path used on only %d documents", fast)
	}
}

func FuzzFastDecode(f *testing.F) {
	for _, s := range []string{
		"apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a}\ndata:\n  k: v\n",
		"a:\n- b: 1\n  c: [1, 2]\n- 'x'\n",
		"s: |\n  a\n\n  b\n",
		// wrapped scalars, as kubectl kustomize writes long descriptions
		"d: a long plain\n  string wrapped\n\n  twice\nn: 1\n",
		"d: 'single quoted\n  wrapped '' here'\n",
		"d: \"double quoted\n  wrapped \\\n  escaped\\tline\"\n",
		"- description: plain text that\n    goes on\n  type: object\n",
	} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkFast(t, data)
	})
}

// TestFastDecodeKeysOwnTheirBytes: keys interned by a pooled parser are
// copies, so a document decoded later, or the input overwritten, changes
// no key of a decoded object, and the same key reads the same in both.
func TestFastDecodeKeysOwnTheirBytes(t *testing.T) {
	data := []byte("kind: A\nmetadata:\n  name: a\n  labels:\n    app: web\n")
	first, ok := fastDecode(data)
	if !ok {
		t.Fatal("fast path refused a plain document")
	}
	second, ok := fastDecode([]byte("kind: B\nmetadata:\n  name: b\n"))
	if !ok {
		t.Fatal("fast path refused a plain document")
	}
	for i := range data {
		data[i] = 'x'
	}
	want := map[string]any{"kind": "A", "metadata": map[string]any{"name": "a", "labels": map[string]any{"app": "web"}}}
	if !reflect.DeepEqual(first, want) {
		t.Errorf("first document after its input was overwritten: %v, want %v", first, want)
	}
	if want := (map[string]any{"kind": "B", "metadata": map[string]any{"name": "b"}}); !reflect.DeepEqual(second, want) {
		t.Errorf("second document: %v, want %v", second, want)
	}
}
