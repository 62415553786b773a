package bombcorpus

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Shape is one kind of bomb: Doc(i) is the i-th document (without "---").
type Shape struct {
	Name string
	Doc  func(i int) string
}

// perDoc is how many elements a document of a list-shaped bomb holds:
// about 1 MiB, under manifest.MaxDocumentBytes.
const perDoc = 200_000

// Shapes are the bombs kubeplan refuses (denser than one node per
// manifest.MinBytesPerUnit bytes), costliest per byte first.
var Shapes = []Shape{
	{"tiny-documents", func(int) string { return "a: 1\n" }},
	{"tiny-objects", func(i int) string {
		return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c%d}\n", i)
	}},
	{"broken-documents", func(int) string { return "a: [\n" }},
	{"flow-sequence", func(i int) string {
		return object(i) + "data: {k: v}\nx: [" + strings.Repeat("1,", perDoc) + "1]\n"
	}},
	{"deep-flow", func(i int) string {
		return object(i) + "x: " + strings.Repeat("[", 10_000) + strings.Repeat("]", 10_000) + "\n"
	}},
	{"block-sequence", func(i int) string {
		return object(i) + "x:\n" + strings.Repeat("- a\n", perDoc)
	}},
	{"flow-map", func(i int) string {
		var b strings.Builder
		b.WriteString(object(i) + "data: {")
		for j := range perDoc / 2 {
			fmt.Fprintf(&b, "k%d: v,", j)
		}
		b.WriteString("k: v}\n")
		return b.String()
	}},
}

// Dense are the shapes just above the density line: loaded, at 15x to 20x
// their size in memory.
var Dense = []Shape{
	{"short-keys", func(i int) string {
		var b strings.Builder
		b.WriteString(object(i) + "data:\n")
		for j := range perDoc / 2 {
			fmt.Fprintf(&b, "  k%d: v\n", j)
		}
		return b.String()
	}},
}

func object(i int) string {
	return fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: bomb-%d\n", i)
}

// Ordinary is a file of ordinary objects: Deployments as teams write them.
var Ordinary = Shape{"ordinary", func(i int) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: web-%d
  labels: {app: web-%d}
spec:
  replicas: 2
  selector:
    matchLabels: {app: web-%d}
  template:
    metadata:
      labels: {app: web-%d}
    spec:
      containers:
        - name: web
          image: registry.example.com/web:1.%d
          ports:
            - containerPort: 8080
          resources:
            requests: {cpu: 100m, memory: 128Mi}
            limits: {memory: 256Mi}
`, i, i, i, i, i)
}}

// Write writes one file per shape into dir, each of at least size bytes
// (documents are written whole), streaming, so that the writer's own
// memory stays small. It returns the files and their total size.
func Write(dir string, size int64, shapes ...Shape) (files []string, total int64, err error) {
	for _, s := range shapes {
		p := filepath.Join(dir, s.Name+".yaml")
		n, err := writeShape(p, size, s)
		if err != nil {
			return nil, 0, err
		}
		files = append(files, p)
		total += n
	}
	return files, total, nil
}

func writeShape(p string, size int64, s Shape) (int64, error) {
	f, err := os.Create(p)
	if err != nil {
		return 0, err
	}
	w := bufio.NewWriter(f)
	var n int64
	for i := 0; n < size; i++ {
		k, err := w.WriteString("---\n" + s.Doc(i))
		if err != nil {
			f.Close()
			return 0, err
		}
		n += int64(k)
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return 0, err
	}
	return n, f.Close()
}
