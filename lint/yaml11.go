package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kubeplan/kubeplan/manifest"
)

const ruleYAML11 = "yaml11-value"

// yaml11Check finds plain scalars that YAML 1.1 readers (kubectl, Helm,
// Argo CD) and YAML 1.2 readers (kubeplan, kustomize) read differently, at
// fields whose schema says what they must be:
//
//   - where a string is wanted, a plain scalar YAML 1.1 reads as a boolean
//     or a number (on, yes, NO, 0755, 1e3, 1:20): an error, quote it;
//   - where a boolean is wanted, a YAML 1.1 boolean other than true and
//     false (yes, on, N...): a warning, write true or false.
//
// It replaces the schema's type error at the same scalar, if any, so a
// value gets one finding. Its cost on a clean object is one walk of the
// content: the source tree is consulted only for candidate values.
func (l *linter) yaml11Check(o *manifest.Object, verdict apiVerdict, findings []Finding) []Finding {
	w := yaml11Walk{typeErrs: hasStringTypeError(findings)}
	w.walk(o.Content, make([]string, 0, 16))
	if len(w.candidates) == 0 {
		return findings // nearly always: no schema, no source tree needed
	}
	root, top := l.schemaRoot(o, verdict)
	var found []Finding
	for _, path := range w.candidates {
		if f, ok := yaml11Finding(o, path, yaml11Want(root, top, path)); ok {
			found = append(found, f)
		}
	}
	if len(found) == 0 {
		return findings
	}
	out := findings[:0:0]
	for _, f := range findings {
		if !yaml11Replaces(found, f) {
			out = append(out, f)
		}
	}
	return append(out, found...)
}

// schemaRoot is the raw JSON schema of o (its document, for "$ref"s, and
// the object's own schema), nil when there is none.
func (l *linter) schemaRoot(o *manifest.Object, verdict apiVerdict) (root, top map[string]any) {
	switch verdict {
	case apiBuiltin:
		if c, err := builtins.get(o.APIVersion, o.Kind); err == nil && c != nil {
			m, _ := c.raw.(map[string]any)
			return m, m
		}
	case apiCustom:
		cv, ok := l.crds.versions[crdKey(o.Group(), o.Version(), o.Kind)]
		if !ok || cv.schema == nil {
			return nil, nil
		}
		if c, err := cv.schema.get(l.crdCache); err == nil {
			m, _ := c.raw.(map[string]any)
			return m, m
		}
	}
	return nil, nil
}

// hasStringTypeError reports a schema finding that a boolean or number is
// no string: only then do non-string values need a look.
func hasStringTypeError(fs []Finding) bool {
	for _, f := range fs {
		if (f.Rule == "schema" || f.Rule == "crd-schema") && f.Severity == Error && yaml11ContainsAny(f.Message, " must be a string, not a boolean", " must be a string, not a number", " must be a string, not an integer") {
			return true
		}
	}
	return false
}

// yaml11Walk collects the paths of the values worth a look: strings YAML
// 1.1 reads otherwise, and, when the schema check found a boolean or number
// where a string is wanted, every boolean and number.
type yaml11Walk struct {
	typeErrs   bool
	candidates [][]string
}

func (w *yaml11Walk) walk(v any, path []string) {
	switch v := v.(type) {
	case map[string]any:
		for k, c := range v {
			w.walk(c, append(path, k))
		}
	case []any:
		for i, c := range v {
			w.walk(c, append(path, strconv.Itoa(i)))
		}
	case string:
		if yaml12String(v) {
			w.candidates = append(w.candidates, append([]string(nil), path...))
		}
	case bool, int64, float64:
		if w.typeErrs {
			w.candidates = append(w.candidates, append([]string(nil), path...))
		}
	}
}

// yaml11Finding is the finding about the scalar at path, which the schema
// wants to be want ("string", "boolean" or "" for neither), if it is plain
// and YAML 1.1 reads it otherwise.
func yaml11Finding(o *manifest.Object, path []string, want string) (Finding, bool) {
	if want == "" {
		return Finding{}, false
	}
	text, plain, ok := o.ScalarSource(path...)
	if !ok || !plain {
		return Finding{}, false
	}
	kind, value := yaml11Reading(text)
	field := fieldPath(path)
	switch {
	case want == "string" && yaml11Surprising(text, kind):
		what := "the " + kind + " " + value
		if kind == "number" && value != text {
			what = "the number " + value
		}
		msg := fmt.Sprintf("%s: YAML 1.1 (kubectl, Helm, Argo CD) reads the unquoted %s as %s, and a string is wanted here; quote it: %q", field, text, what, text)
		if _, base60 := yaml11Base60(text); base60 {
			msg = fmt.Sprintf("%s: YAML 1.1 reads the unquoted %s as the base-60 number %s, and a string is wanted here; quote it: %q", field, text, value, text)
		}
		return objectFinding(o, path, Error, ruleYAML11, msg), true
	case want == "boolean" && kind == "boolean" && yaml12String(text):
		return objectFinding(o, path, Warning, ruleYAML11,
			fmt.Sprintf("%s: YAML 1.1 (kubectl, Helm) reads the unquoted %s as %s, YAML 1.2 (kubeplan, kustomize) as the string %q, which is no boolean; write %s", field, text, value, text, value)), true
	}
	return Finding{}, false
}

// yaml11Replaces reports a schema finding about a value found reports.
func yaml11Replaces(found []Finding, f Finding) bool {
	if f.Rule != "schema" && f.Rule != "crd-schema" {
		return false
	}
	for _, y := range found {
		if f.File == y.File && f.Line == y.Line && f.Col == y.Col && f.Field == y.Field {
			return true
		}
	}
	return false
}

// yaml11Want is "string" or "boolean" when that is the only scalar type
// the schema (root, top: see schemaRoot) allows at path, "" otherwise.
// Labels and annotations are strings in every object, whatever its schema
// says of metadata.
func yaml11Want(root, top map[string]any, path []string) string {
	if len(path) == 3 && path[0] == "metadata" && (path[1] == "labels" || path[1] == "annotations") {
		return "string"
	}
	if top == nil {
		return ""
	}
	return yaml11OnlyType(yaml11Types(root, yaml11SchemaAt(root, top, path)))
}

func yaml11ContainsAny(s string, subs ...string) bool {
	for _, sub := range subs {
		if strings.Contains(s, sub) {
			return true
		}
	}
	return false
}
