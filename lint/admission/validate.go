package admission

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	v1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
	sigsjson "sigs.k8s.io/json"

	"github.com/kubeplan/kubeplan/manifest"
)

// refusal is why the API server refuses to create a policy or binding:
// the errors of its decoding (unknown fields, wrong types: schema says they
// are schema errors, which lint reports already for an object it lints) or
// of its validation.
type refusal struct {
	errs   field.ErrorList
	schema bool
}

// decodeStrict reads o into v as the API server reads a create request
// with fieldValidation=Strict (what kubectl and kubeplan's apply send):
// case-sensitive, unknown and duplicate fields refused, each error with
// the path of its field.
func decodeStrict(o *manifest.Object, v any) field.ErrorList {
	b, err := json.Marshal(o.Content)
	if err != nil {
		return field.ErrorList{field.InternalError(nil, err)}
	}
	strict, err := sigsjson.UnmarshalStrict(b, v)
	var errs field.ErrorList
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &te):
		// The decoder's path names Go's embedded structs and no list
		// index ("spec.matchConstraints.resourceRules.RuleWithOperations.operations"):
		// the field meant is the first of o's fields on that path holding
		// a value of the kind the decoder got.
		path := te.Field
		if segs, ok := locate(o.Content, strings.Split(te.Field, "."), te.Value); ok {
			path = dottedPath(segs)
		}
		errs = append(errs, &field.Error{Type: field.ErrorTypeTypeInvalid, Field: path, BadValue: field.OmitValueType{},
			Detail: fmt.Sprintf("expected %s, got %s", typeWord(te.Type.Kind().String()), te.Value)})
	case err != nil:
		errs = append(errs, field.Invalid(nil, nil, err.Error()))
	}
	for _, s := range strict {
		var fe sigsjson.FieldError
		if errors.As(s, &fe) {
			errs = append(errs, &field.Error{Type: field.ErrorTypeNotSupported, Field: fe.FieldPath(), Detail: s.Error(), BadValue: field.OmitValueType{}})
			continue
		}
		errs = append(errs, field.Invalid(nil, nil, s.Error()))
	}
	return errs
}

func typeWord(kind string) string {
	switch kind {
	case "struct", "map":
		return "object"
	case "slice":
		return "array"
	case "int", "int32", "int64":
		return "integer"
	}
	return kind
}

// locate finds the field of v the decoding path segs names: the first,
// in order, whose value is of the JSON kind got ("string", "number 5",
// "array"...), with list indexes, skipping the names of Go's embedded
// structs.
func locate(v any, segs []string, got string) ([]string, bool) {
	if len(segs) == 0 {
		return nil, jsonKind(v) == strings.Fields(got + " ?")[0]
	}
	switch c := v.(type) {
	case map[string]any:
		if child, ok := c[segs[0]]; ok {
			if rest, ok := locate(child, segs[1:], got); ok {
				return append([]string{segs[0]}, rest...), true
			}
		}
		if s := segs[0]; s != "" && s[0] >= 'A' && s[0] <= 'Z' {
			return locate(c, segs[1:], got)
		}
	case []any:
		for i, e := range c {
			if rest, ok := locate(e, segs, got); ok {
				return append([]string{strconv.Itoa(i)}, rest...), true
			}
		}
	}
	return nil, false
}

func jsonKind(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case bool:
		return "bool"
	case map[string]any:
		return "object"
	case []any:
		return "array"
	case nil:
		return "null"
	}
	return "number"
}

// dottedPath prints segments as the API server prints a field path
// ("spec.validations[0].expression").
func dottedPath(segs []string) string {
	var b strings.Builder
	for _, s := range segs {
		if _, err := strconv.Atoi(s); err == nil {
			b.WriteString("[" + s + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// readPolicy decodes o as the API server decodes a create of a
// ValidatingAdmissionPolicy, defaults it, and validates it; the policy is
// nil when it cannot be read at all.
func readPolicy(o *manifest.Object) (*v1.ValidatingAdmissionPolicy, *refusal) {
	p := &v1.ValidatingAdmissionPolicy{}
	if errs := decodeStrict(o, p); len(errs) > 0 {
		return nil, &refusal{errs: errs, schema: true}
	}
	defaultPolicy(p)
	if errs := validatePolicy(p); len(errs) > 0 {
		return p, &refusal{errs: errs}
	}
	return p, nil
}

// readBinding is readPolicy for a ValidatingAdmissionPolicyBinding.
func readBinding(o *manifest.Object) (*v1.ValidatingAdmissionPolicyBinding, *refusal) {
	b := &v1.ValidatingAdmissionPolicyBinding{}
	if errs := decodeStrict(o, b); len(errs) > 0 {
		return nil, &refusal{errs: errs, schema: true}
	}
	defaultMatch(b.Spec.MatchResources)
	if errs := validateBinding(b); len(errs) > 0 {
		return b, &refusal{errs: errs}
	}
	return b, nil
}

// refusalProblems reports each error of r at the place in o its field
// path names (the deepest part of it o has), in the API server's words.
func refusalProblems(o *manifest.Object, r *refusal) []*manifest.Problem {
	var out []*manifest.Problem
	for _, e := range r.errs {
		path := segments(e.Field)
		at := path
		for len(at) > 0 && !o.Has(at...) {
			at = at[:len(at)-1]
		}
		msg := e.Error()
		if e.Type == field.ErrorTypeNotSupported && e.BadValue == (field.OmitValueType{}) {
			msg = e.Detail // a strict decoding error says it all
		}
		p := problemAt(o, fmt.Sprintf("%s %s is refused by the API server: %s", o.Kind, o.Name, msg), at...)
		if len(at) == len(path) && len(path) > 0 && isUnknownField(e) {
			k := o.KeyPos(path...)
			p.Pos, p.End = k, manifest.Pos{Line: k.Line, Col: k.Col + len([]rune(path[len(path)-1]))}
		}
		out = append(out, p)
	}
	return out
}

func isUnknownField(e *field.Error) bool {
	return e.Type == field.ErrorTypeNotSupported && strings.Contains(e.Detail, "unknown field")
}

// segments splits a field path as the API server prints it
// ("spec.validations[0].expression") into the keys of an object path.
func segments(p string) []string {
	var out []string
	var cur bytes.Buffer
	flush := func() {
		if cur.Len() > 0 {
			out = append(out, cur.String())
			cur.Reset()
		}
	}
	for i := 0; i < len(p); i++ {
		switch c := p[i]; c {
		case '.':
			flush()
		case '[':
			flush()
			j := strings.IndexByte(p[i:], ']')
			if j < 0 {
				cur.WriteString(p[i:])
				i = len(p)
				continue
			}
			out = append(out, p[i+1:i+j])
			i += j
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}
