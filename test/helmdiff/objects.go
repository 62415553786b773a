package helmdiff

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"reflect"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// objects is a rendering: "kind/namespace/name" to the object's content.
type objects map[string]map[string]any

// key is "kind/namespace/name" of an object's content.
func key(c map[string]any) string {
	md, _ := c["metadata"].(map[string]any)
	kind, _ := c["kind"].(string)
	ns, _ := md["namespace"].(string)
	name, _ := md["name"].(string)
	return kind + "/" + ns + "/" + name
}

// parseStream reads helm template's output: the YAML documents that are
// objects (an empty or null document is none, as for kubeplan).
func parseStream(data []byte) (objects, error) {
	out := objects{}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	for {
		var doc any
		err := dec.Decode(&doc)
		if errors.Is(err, io.EOF) {
			return out, nil
		}
		if err != nil {
			return nil, fmt.Errorf("helm template output: %w", err)
		}
		m, ok := normalize(doc).(map[string]any)
		if !ok || len(m) == 0 {
			continue
		}
		k := key(m)
		if _, dup := out[k]; dup {
			return nil, fmt.Errorf("helm template renders %s twice", k)
		}
		out[k] = m
	}
}

// normalize makes YAML-decoded values comparable with kubeplan's: mappings
// with string keys, integers as int64, floats as float64.
func normalize(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = normalize(x)
		}
		return m
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[fmt.Sprint(k)] = normalize(x)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, x := range t {
			l[i] = normalize(x)
		}
		return l
	case int:
		return int64(t)
	case int32:
		return int64(t)
	case uint64:
		return int64(t)
	case float32:
		return float64(t)
	case float64:
		if t == float64(int64(t)) && t < 1<<53 && t > -(1<<53) {
			return int64(t)
		}
		return t
	}
	return v
}

// generated is the set of field paths ("a.b.0.c") whose values differ
// between two renderings of the same object, or that only one of them has:
// values the chart generates (randAlphaNum, genCA, uuidv4, now).
func generated(a, b any, path []string, out map[string]bool) {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			out[strings.Join(path, ".")] = true
			return
		}
		for k := range union(x, y) {
			generated(x[k], y[k], append(path, k), out)
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			out[strings.Join(path, ".")] = true
			return
		}
		for i := range x {
			generated(x[i], y[i], append(path, strconv.Itoa(i)), out)
		}
	default:
		if !reflect.DeepEqual(a, b) {
			out[strings.Join(path, ".")] = true
		}
	}
}

func union(a, b map[string]any) map[string]bool {
	u := map[string]bool{}
	for k := range a {
		u[k] = true
	}
	for k := range b {
		u[k] = true
	}
	return u
}

// mask replaces the values at the generated paths of v with "<generated>".
func mask(v any, path []string, gen map[string]bool) any {
	if gen[strings.Join(path, ".")] {
		return "<generated>"
	}
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = mask(x, append(path, k), gen)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, x := range t {
			l[i] = mask(x, append(path, strconv.Itoa(i)), gen)
		}
		return l
	}
	return v
}

// differences lists where b differs from a, at most max of them, as
// "path: helm X, kubeplan Y".
func differences(a, b any, path []string, out *[]string, max int) {
	if len(*out) >= max {
		return
	}
	p := strings.Join(path, ".")
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok {
			*out = append(*out, fmt.Sprintf("%s: helm %s, kubeplan %s", p, brief(a), brief(b)))
			return
		}
		keys := make([]string, 0)
		for k := range union(x, y) {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			differences(x[k], y[k], append(path, k), out, max)
		}
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			*out = append(*out, fmt.Sprintf("%s: helm %s, kubeplan %s", p, brief(a), brief(b)))
			return
		}
		for i := range x {
			differences(x[i], y[i], append(path, strconv.Itoa(i)), out, max)
		}
	default:
		if !reflect.DeepEqual(a, b) {
			*out = append(*out, fmt.Sprintf("%s: helm %s, kubeplan %s", p, brief(a), brief(b)))
		}
	}
}

// brief is v shown in at most 80 characters, with its Go type.
func brief(v any) string {
	s := fmt.Sprintf("%T %v", v, v)
	if len(s) > 80 {
		s = s[:77] + "..."
	}
	return s
}
