package manifest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"
)

// MaxDocumentBytes bounds a single YAML document. The API server refuses
// request bodies over 3 MiB, so nothing bigger can be a real object.
const MaxDocumentBytes = 4 << 20

// Parse reads the YAML or JSON stream data (named file in messages) into
// objects. Problems with the input are returned, never panicked on. A file
// denser than any set of manifests is refused unparsed (densityProblem),
// and a file's parse stops after MaxFileProblems problems.
func Parse(file string, data []byte) ([]*Object, []*Problem) {
	return parseStream(context.Background(), file, data)
}

// parseStream is Parse that stops between documents once ctx is done (the
// caller reports ctx's error).
func parseStream(ctx context.Context, file string, data []byte) ([]*Object, []*Problem) {
	if p := checkText(file, data); p != nil {
		return nil, []*Problem{p}
	}
	if p := densityProblem(file, data); p != nil {
		return nil, []*Problem{p}
	}
	if p := charge(ctx, file, data); p != nil {
		return nil, []*Problem{p}
	}
	var objs []*Object
	var probs []*Problem
	doc := 0
	for _, c := range SplitDocuments(data) {
		if ctx.Err() != nil {
			return objs, probs
		}
		if len(probs) >= MaxFileProblems {
			return objs, append(probs, tooManyProblems(file, c.Line))
		}
		if len(bytes.TrimSpace(c.Data)) == 0 {
			continue
		}
		if len(c.Data) > MaxDocumentBytes {
			probs = append(probs, &Problem{File: file, Pos: Pos{c.Line, 1}, Rule: "invalid-yaml",
				Message: fmt.Sprintf("document is %.1f MiB; the API server refuses objects over 3 MiB, so this cannot be a Kubernetes object (split it)", float64(len(c.Data))/(1<<20))})
			doc++
			continue
		}
		o, p := parseDocument(file, doc, c)
		objs = append(objs, o...)
		probs = append(probs, p...)
		if len(o) > 0 || len(p) > 0 {
			doc++
		}
	}
	return objs, probs
}

// DecodeYAML parses the first YAML document of data into a node tree (nil
// when there is none) and returns the next document if yaml.v3 finds one.
// yaml.v3 recovers only its own errors; any other panic inside it becomes an
// error here, so bad input can never crash the process.
func DecodeYAML(data []byte) (doc, next *yaml.Node, err error) {
	defer func() {
		if r := recover(); r != nil {
			doc, next, err = nil, nil, ParserPanic{r}
		}
	}()
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var n yaml.Node
	if err := dec.Decode(&n); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, nil, nil
		}
		return nil, nil, err
	}
	var m yaml.Node
	switch err := dec.Decode(&m); {
	case errors.Is(err, io.EOF):
		return &n, nil, nil
	case err != nil:
		return &n, nil, err
	}
	return &n, &m, nil
}

// ParserPanic is a panic inside yaml.v3, caught: Value is what it panicked with.
type ParserPanic struct{ Value any }

func (p ParserPanic) Error() string {
	return fmt.Sprintf("the YAML parser failed on this document (%v)", p.Value)
}

func parseDocument(file string, doc int, c Chunk) ([]*Object, []*Problem) {
	if content, ok := fastDecode(c.Data); ok {
		if objs, probs, done := fastObjects(file, doc, c, content); done {
			return objs, probs
		}
	}
	lines := NewLineMap(c)
	n, next, err := DecodeYAML(c.Data)
	var pp ParserPanic
	if errors.As(err, &pp) {
		// no position known: the document's first line
		return nil, []*Problem{{File: file, Pos: Pos{c.Line, 1}, Rule: "invalid-yaml", Message: "invalid YAML: " + pp.Error()}}
	}
	if err != nil {
		return nil, []*Problem{yamlProblem(file, c, lines, err)}
	}
	if next != nil {
		// kubectl splits a stream only at a line that is "---" and nothing
		// else (but a comment); what follows another marker would be lost.
		return nil, []*Problem{{File: file, Pos: lines.pos(next.Line, next.Column), Rule: "invalid-yaml",
			Message: `a second YAML document starts here without a "---" line of its own; put "---" alone on a line between documents`}}
	}
	return objectsOfNode(file, doc, lines, n)
}

// objectsOfNode makes the object(s) of one parsed YAML document.
func objectsOfNode(file string, doc int, lines *lineMap, n *yaml.Node) ([]*Object, []*Problem) {
	if n == nil || len(n.Content) == 0 {
		return nil, nil // only comments
	}
	root := n.Content[0]
	if root.Kind == yaml.ScalarNode && root.ShortTag() == "!!null" {
		return nil, nil // "~" or "null": an empty document
	}
	if root.Kind != yaml.MappingNode {
		if nonObjectFile(file) {
			return nil, nil
		}
		return nil, []*Problem{{File: file, Pos: lines.pos(root.Line, root.Column), Rule: "not-an-object",
			Message: fmt.Sprintf("document is a %s, not a Kubernetes object (a mapping with apiVersion and kind)", kindName(root))}}
	}
	d := NewDecoder(file, lines, CountNodes(root))
	content, _ := d.Value(root, 0).(map[string]any)
	if d.exhausted {
		return nil, d.problems
	}
	_, hasKind := content["kind"]
	_, hasAPI := content["apiVersion"]
	if !hasKind && !hasAPI {
		return nil, d.problems // some other YAML file: a values file, a workflow, ...
	}
	if tool := toolConfig(content); tool != "" {
		return nil, append(d.problems, toolConfigProblem(file, content, root, lines, tool)) // never sent to a cluster
	}
	o := &Object{File: file, Doc: doc, Content: content, Root: root, Lines: lines}
	probs := d.problems
	if p := o.FillIdentity(); p != nil {
		return nil, append(probs, p)
	}
	if items, ok := content["items"].([]any); ok && strings.HasSuffix(o.Kind, "List") {
		return expandList(o, items, probs)
	}
	return []*Object{o}, probs
}

// fastObjects makes the object of a document the fast decoder read. Its
// positions are parsed later, and only if asked for. done is false for the
// rare documents it leaves to the full path (lists).
func fastObjects(file string, doc int, c Chunk, content map[string]any) (objs []*Object, probs []*Problem, done bool) {
	_, hasKind := content["kind"]
	_, hasAPI := content["apiVersion"]
	if !hasKind && !hasAPI {
		return nil, nil, true // some other YAML file: a values file, a workflow, ...
	}
	if toolConfig(content) != "" {
		return nil, nil, false // a tool's configuration: the full path reports it at its kind
	}
	if k, _ := content["kind"].(string); strings.HasSuffix(k, "List") {
		if _, isList := content["items"]; isList {
			return nil, nil, false
		}
	}
	o := &Object{File: file, Doc: doc, Content: content, Lazy: newLazy(file, c)}
	if p := o.FillIdentity(); p != nil {
		return nil, []*Problem{p}, true
	}
	return []*Object{o}, nil, true
}

// FillIdentity sets apiVersion, kind, name and namespace from Content.
func (o *Object) FillIdentity() *Problem {
	for _, f := range []string{"apiVersion", "kind"} {
		v, ok := o.Content[f]
		s, isStr := v.(string)
		switch {
		case !ok:
			return &Problem{File: o.File, Pos: o.Start(), Rule: "schema",
				Message: fmt.Sprintf("object has no %s; every Kubernetes object needs apiVersion and kind", f)}
		case !isStr || s == "":
			return &Problem{File: o.File, Pos: o.Pos(f), Rule: "schema",
				Message: fmt.Sprintf("%s must be a non-empty string", f)}
		}
	}
	o.APIVersion = o.Content["apiVersion"].(string)
	o.Kind = o.Content["kind"].(string)
	o.Name = o.GetString("metadata", "name")
	if o.Name == "" {
		o.Name = o.GetString("metadata", "generateName")
	}
	o.Namespace = o.GetString("metadata", "namespace")
	return nil
}

func expandList(list *Object, items []any, probs []*Problem) ([]*Object, []*Problem) {
	_, itemsNode, _ := list.lookup([]string{"items"})
	var out []*Object
	for i, it := range items {
		m, ok := it.(map[string]any)
		var node *yaml.Node
		if itemsNode != nil && i < len(itemsNode.Content) {
			node = Deref(itemsNode.Content[i])
		}
		if !ok || node == nil {
			probs = append(probs, &Problem{File: list.File, Pos: list.Pos("items", strconv.Itoa(i)), Rule: "not-an-object",
				Message: fmt.Sprintf("items[%d] of %s is not an object", i, list.Kind)})
			continue
		}
		o := &Object{File: list.File, Doc: list.Doc, Content: m, Root: node, Lines: list.Lines}
		if p := o.FillIdentity(); p != nil {
			probs = append(probs, p)
			continue
		}
		out = append(out, o)
	}
	return out, probs
}

var yamlLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: line (\d+): (.*)$`) })

// yamlProblem turns a yaml.v3 error into a Problem at the right line, and
// finds the column the parser does not report.
func yamlProblem(file string, c Chunk, lm *lineMap, err error) *Problem {
	msg := err.Error()
	line := 0
	if m := yamlLineRE().FindStringSubmatch(msg); m != nil {
		line, _ = strconv.Atoi(m[1])
		msg = m[2]
		// yaml.v3 reports parser errors at the 0-based line of the
		// construct being parsed; make it 1-based.
		if strings.HasPrefix(msg, "did not find expected") {
			line++
		}
		// yaml.v3 lines can run ahead of the file's "\n" lines.
		line = lm.pos(line, 1).Line - (c.Line - 1)
	} else {
		msg = strings.TrimPrefix(msg, "yaml: ")
	}
	lines := bytes.Split(c.Data, []byte("\n"))
	if line < 1 || line > len(lines) {
		line = len(lines)
		if line < 1 {
			line = 1
		}
	}
	for line > 1 && len(bytes.TrimSpace(lines[line-1])) == 0 {
		line--
	}
	text := lines[line-1]
	col := 1 + len(text) - len(bytes.TrimLeft(text, " "))
	if spot, ok := syntaxPos(c.Data, line, msg); ok {
		line, col = spot.line, spot.col
		if spot.hint != "" {
			msg += "; " + spot.hint
		}
	}
	if strings.Contains(msg, "cannot start any token") || strings.Contains(msg, "tab character") {
		// The parser may name the line before the tab: look from there.
		for l := line; l <= len(lines) && l <= line+1; l++ {
			indent := lines[l-1][:len(lines[l-1])-len(bytes.TrimLeft(lines[l-1], " \t"))]
			if i := bytes.IndexByte(indent, '\t'); i >= 0 {
				line, col = l, i+1
				msg = "tab character in indentation; YAML allows only spaces for indentation"
				break
			}
		}
	}
	return &Problem{File: file, Pos: Pos{line + c.Line - 1, col}, Rule: "invalid-yaml",
		Message: "invalid YAML: " + msg}
}

// nonObjectFile reports files that are YAML but never Kubernetes objects.
func nonObjectFile(file string) bool {
	base := strings.ToLower(filepath.Base(file))
	switch base {
	case "kustomization.yaml", "kustomization.yml", "chart.yaml", "chart.lock",
		".pre-commit-hooks.yaml", ".pre-commit-config.yaml", ".kubeplan.yaml", "kubeplan.yaml",
		"action.yml", "action.yaml", ".gitlab-ci.yml", "docker-compose.yml", "docker-compose.yaml":
		return true
	}
	if strings.HasPrefix(base, "values") && (strings.HasSuffix(base, ".yaml") || strings.HasSuffix(base, ".yml")) {
		return true
	}
	slash := filepath.ToSlash(file)
	return strings.Contains(slash, ".github/")
}
