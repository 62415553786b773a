package lint

import (
	"errors"
	"fmt"
	"sort"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"golang.org/x/text/language"
	"golang.org/x/text/message"

	"github.com/kubeplan/kubeplan/lint/semantic"
	"github.com/kubeplan/kubeplan/manifest"
)

var printer = message.NewPrinter(language.English)

// schemaFindings turns a validation error into one finding per leaf cause,
// each at the line and column of the field it is about, in words a person
// understands.
func schemaFindings(o *manifest.Object, c *compiled, err error, rule string) []Finding {
	var ve *jsonschema.ValidationError
	if !errors.As(err, &ve) {
		return []Finding{objectFinding(o, nil, Error, rule, err.Error())}
	}
	var leaves []*jsonschema.ValidationError
	collectLeaves(ve, &leaves)
	var out []Finding
	seen := map[string]bool{}
	for _, l := range leaves {
		for _, f := range leafFindings(o, c, l, rule) {
			k := fmt.Sprintf("%d:%d:%s", f.Line, f.Col, f.Message)
			if !seen[k] {
				seen[k] = true
				out = append(out, f)
			}
		}
	}
	return out
}

func collectLeaves(e *jsonschema.ValidationError, out *[]*jsonschema.ValidationError) {
	switch e.ErrorKind.(type) {
	case *kind.OneOf, *kind.AnyOf:
		*out = append(*out, e)
		return
	}
	if len(e.Causes) == 0 {
		*out = append(*out, e)
		return
	}
	for _, c := range e.Causes {
		collectLeaves(c, out)
	}
}

func leafFindings(o *manifest.Object, c *compiled, e *jsonschema.ValidationError, rule string) []Finding {
	path := e.InstanceLocation
	field := fieldPath(path)
	switch k := e.ErrorKind.(type) {
	case *kind.AdditionalProperties:
		var out []Finding
		for _, p := range k.Properties {
			full := append(append([]string{}, path...), p)
			msg := fmt.Sprintf("unknown field %q", fieldPath(full))
			if s := suggest(p, knownFields(c, e.SchemaURL)); s != "" {
				msg += fmt.Sprintf(" (did you mean %q?)", s)
			}
			f := objectFinding(o, full, Error, rule, msg+"; the API server rejects unknown fields")
			kp := o.KeyPos(full...)
			f.Line, f.Col, f.EndLine, f.EndCol = kp.Line, kp.Col, kp.Line, kp.Col+len([]rune(p))
			out = append(out, f)
		}
		return out
	case *kind.Required:
		var out []Finding
		for _, m := range k.Missing {
			where := "the object"
			if field != "" {
				where = field
			}
			out = append(out, objectFinding(o, path, Error, rule, fmt.Sprintf("missing required field %q in %s", m, where)))
		}
		return out
	case *kind.Type:
		want := wantTypes(k.Want)
		msg := fmt.Sprintf("%s must be %s, not %s", nameOf(field), want, article(k.Got))
		if v, ok := o.Get(path...); ok && showValue(o) {
			if s, isStr := v.(string); isStr && len(s) <= 60 {
				msg = fmt.Sprintf("%s must be %s, not the string %q", nameOf(field), want, s)
			}
		}
		return []Finding{objectFinding(o, path, Error, rule, msg)}
	case *kind.OneOf, *kind.AnyOf:
		var types []string
		for _, c := range e.Causes {
			if t, ok := c.ErrorKind.(*kind.Type); ok {
				types = append(types, t.Want...)
			}
		}
		if len(types) > 0 && len(types) == countTypeCauses(e) {
			return []Finding{objectFinding(o, path, Error, rule, fmt.Sprintf("%s must be %s", nameOf(field), wantTypes(types)))}
		}
		var leaves []*jsonschema.ValidationError
		for _, c := range e.Causes {
			collectLeaves(c, &leaves)
		}
		if len(leaves) > 0 {
			return leafFindings(o, c, leaves[0], rule)
		}
	case *kind.Enum:
		var want []string
		for _, w := range k.Want {
			want = append(want, fmt.Sprintf("%v", w))
		}
		msg := fmt.Sprintf("%s must be one of: %s", nameOf(field), strings.Join(want, ", "))
		if s, ok := k.Got.(string); ok && showValue(o) {
			msg += fmt.Sprintf(" (got %q)", s)
		}
		return []Finding{objectFinding(o, path, Error, rule, msg)}
	}
	msg := e.ErrorKind.LocalizedString(printer)
	if !showValue(o) {
		msg = "value does not match the schema (" + kindName(e.ErrorKind) + ")"
	}
	return []Finding{objectFinding(o, path, Error, rule, nameOf(field)+": "+msg)}
}

func countTypeCauses(e *jsonschema.ValidationError) int {
	n := 0
	for _, c := range e.Causes {
		if _, ok := c.ErrorKind.(*kind.Type); ok {
			n += len(c.ErrorKind.(*kind.Type).Want)
		} else {
			return -1
		}
	}
	return n
}

// showValue says whether values of o may appear in messages: never for
// Secrets.
func showValue(o *manifest.Object) bool { return o.Kind != "Secret" }

func kindName(k jsonschema.ErrorKind) string {
	return strings.Join(k.KeywordPath(), "/")
}

func nameOf(field string) string {
	if field == "" {
		return "the object"
	}
	return field
}

func wantTypes(ts []string) string {
	var out []string
	seen := map[string]bool{}
	for _, t := range ts {
		if t == "null" || seen[t] {
			continue
		}
		seen[t] = true
		out = append(out, article(t))
	}
	sort.Strings(out)
	if len(out) == 0 {
		return "null"
	}
	return strings.Join(out, " or ")
}

func article(t string) string {
	switch t {
	case "integer", "object", "array":
		if t == "array" {
			return "a list"
		}
		if t == "object" {
			return "a mapping"
		}
		return "an integer"
	case "null":
		return "null"
	}
	return "a " + t
}

// fieldPath is how findings name a field (semantic.FieldPath).
var fieldPath = semantic.FieldPath

// knownFields finds the property names of the schema at url's fragment.
func knownFields(c *compiled, url string) []string {
	if c == nil {
		return nil
	}
	i := strings.IndexByte(url, '#')
	if i < 0 {
		return nil
	}
	cur := c.raw
	for _, tok := range strings.Split(strings.TrimPrefix(url[i+1:], "/"), "/") {
		if tok == "" {
			continue
		}
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[tok]
	}
	m, _ := cur.(map[string]any)
	if _, ok := m["properties"]; !ok {
		m, _ = m["additionalProperties"].(map[string]any) // url may point at the keyword
		if m == nil {
			return nil
		}
	}
	props, _ := m["properties"].(map[string]any)
	var out []string
	for k := range props {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// suggest returns the known field closest to p, if it is close enough.
func suggest(p string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		d := editDistance(strings.ToLower(p), strings.ToLower(k))
		if d < bestD {
			best, bestD = k, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
