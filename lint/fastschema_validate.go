package lint

import (
	"errors"
	"math"
	"slices"
	"strconv"
	"sync"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// Validate checks v as jsonschema/v6 would with the same schema and, when
// v is not valid, returns an error of the same shape: a
// *jsonschema.ValidationError whose leaves (and oneOf errors with their
// causes) are the ones jsonschema reports, so schemaFindings reads both
// alike. The intermediate $ref and group errors jsonschema adds between
// them are left out: nothing reads them.
func (s *fastSchema) Validate(v any) error {
	if s.root.valid(v) {
		return nil // most objects: checked without allocating
	}
	var errs []*jsonschema.ValidationError
	s.root.validate(v, make([]string, 0, 8), &errs)
	if len(errs) == 0 {
		return nil
	}
	return &jsonschema.ValidationError{
		InstanceLocation: nil,
		ErrorKind:        &kind.Schema{Location: s.root.loc},
		Causes:           errs,
	}
}

// validate appends v's errors against n to errs, in the order of
// jsonschema's validator: type and format stop at the first error; a
// draft 4 $ref replaces the rest of the node; then required, properties,
// additionalProperties, items and oneOf.
func (n *fastNode) validate(v any, loc []string, errs *[]*jsonschema.ValidationError) {
	t := fastTypeOf(v)
	if t == 0 {
		*errs = append(*errs, n.err(loc, &kind.InvalidJsonValue{Value: v}))
		return
	}
	if n.types != 0 && n.types&t == 0 && (n.types&tInteger == 0 || t != tNumber || !isWhole(v)) {
		*errs = append(*errs, n.err(loc, &kind.Type{Got: t.strings()[0], Want: n.types.strings()}))
		return
	}
	if n.dateTime {
		if s, ok := v.(string); ok {
			if k := dateTimeError(s); k != nil {
				*errs = append(*errs, n.err(loc, k))
				return
			}
		}
	}
	if n.ref != nil {
		n.ref.validate(v, loc, errs)
		return
	}
	switch v := v.(type) {
	case map[string]any:
		n.validateObject(v, loc, errs)
	case []any:
		if n.items != nil {
			for i, item := range v {
				n.items.validate(item, append(loc, strconv.Itoa(i)), errs)
			}
		}
	}
	if len(n.oneOf) > 0 {
		n.validateOneOf(v, loc, errs)
	}
}

func (n *fastNode) validateObject(obj map[string]any, loc []string, errs *[]*jsonschema.ValidationError) {
	var missing []string
	for _, r := range n.required {
		if _, ok := obj[r]; !ok {
			missing = append(missing, r)
		}
	}
	if missing != nil {
		*errs = append(*errs, n.err(loc, &kind.Required{Missing: missing}))
	}
	var additional []string
	for name, pv := range obj {
		if ps, ok := n.props[name]; ok {
			ps.validate(pv, append(loc, name), errs)
			continue
		}
		switch {
		case n.addl != nil:
			n.addl.validate(pv, append(loc, name), errs)
		case n.addlFalse:
			additional = append(additional, name)
		}
	}
	if len(additional) > 0 {
		slices.Sort(additional)
		*errs = append(*errs, n.err(loc, &kind.AdditionalProperties{Properties: additional}))
	}
}

// validateOneOf is jsonschema's oneOf: an error when no subschema matches
// (with each one's errors as causes) or when a second one does.
func (n *fastNode) validateOneOf(v any, loc []string, errs *[]*jsonschema.ValidationError) {
	count := 0
	for _, sub := range n.oneOf {
		if sub.valid(v) {
			count++
		}
	}
	if count == 1 {
		return // the common case, found without making the other subschemas' errors
	}
	matched := -1
	var causes []*jsonschema.ValidationError
	for i, sub := range n.oneOf {
		var subErrs []*jsonschema.ValidationError
		sub.validate(v, loc, &subErrs)
		switch {
		case len(subErrs) > 0:
			if matched == -1 {
				causes = append(causes, groupErrors(sub, loc, subErrs))
			}
		case matched == -1:
			matched = i
		default:
			*errs = append(*errs, n.err(loc, &kind.OneOf{Subschemas: []int{matched, i}}))
			return
		}
	}
	if matched == -1 {
		e := n.err(loc, &kind.OneOf{})
		e.Causes = causes
		*errs = append(*errs, e)
	}
}

// valid reports whether validate would find no error, without making any.
func (n *fastNode) valid(v any) bool {
	t := fastTypeOf(v)
	if t == 0 {
		return false
	}
	if n.types != 0 && n.types&t == 0 && (n.types&tInteger == 0 || t != tNumber || !isWhole(v)) {
		return false
	}
	if n.dateTime {
		if s, ok := v.(string); ok && dateTimeError(s) != nil {
			return false
		}
	}
	if n.ref != nil {
		return n.ref.valid(v)
	}
	switch v := v.(type) {
	case map[string]any:
		for _, r := range n.required {
			if _, ok := v[r]; !ok {
				return false
			}
		}
		for name, pv := range v {
			if ps, ok := n.props[name]; ok {
				if !ps.valid(pv) {
					return false
				}
				continue
			}
			if (n.addl != nil && !n.addl.valid(pv)) || (n.addl == nil && n.addlFalse) {
				return false
			}
		}
	case []any:
		if n.items != nil {
			for _, item := range v {
				if !n.items.valid(item) {
					return false
				}
			}
		}
	}
	if len(n.oneOf) > 0 {
		count := 0
		for _, sub := range n.oneOf {
			if sub.valid(v) {
				count++
			}
		}
		return count == 1
	}
	return true
}

// groupErrors is one error for a subschema's errors, as jsonschema gives it.
func groupErrors(n *fastNode, loc []string, errs []*jsonschema.ValidationError) *jsonschema.ValidationError {
	if len(errs) == 1 {
		return errs[0]
	}
	e := n.err(loc, &kind.Group{})
	e.Causes = errs
	return e
}

func (n *fastNode) err(loc []string, k jsonschema.ErrorKind) *jsonschema.ValidationError {
	return &jsonschema.ValidationError{SchemaURL: n.loc, InstanceLocation: slices.Clone(loc), ErrorKind: k}
}

// fastTypeOf is jsonschema's typeOf: 0 for what JSON cannot hold (NaN,
// infinities, other Go types).
func fastTypeOf(v any) fastTypes {
	switch v := v.(type) {
	case nil:
		return tNull
	case bool:
		return tBoolean
	case float64:
		if math.IsNaN(v) || math.IsInf(v, 0) {
			return 0
		}
		return tNumber
	case float32:
		if math.IsNaN(float64(v)) || math.IsInf(float64(v), 0) {
			return 0
		}
		return tNumber
	case int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
		return tNumber
	case string:
		return tString
	case []any:
		return tArray
	case map[string]any:
		return tObject
	}
	return 0
}

// isWhole reports a number with no fractional part (jsonschema's
// isInteger, for the Go types fastTypeOf accepts).
func isWhole(v any) bool {
	switch v := v.(type) {
	case float64:
		return v == math.Trunc(v)
	case float32:
		return float64(v) == math.Trunc(float64(v))
	}
	return true
}

// dateTimeSchema checks the date-time format with jsonschema itself, so
// that what is accepted, and the words of the error, are jsonschema's.
var dateTimeSchema = sync.OnceValues(func() (*jsonschema.Schema, error) {
	return compileSchema("https://kubeplan.dev/schemas/date-time.json", map[string]any{"format": "date-time"})
})

// dateTimeError is the format error jsonschema gives s, or nil.
func dateTimeError(s string) jsonschema.ErrorKind {
	sch, err := dateTimeSchema()
	if err != nil {
		return &kind.Format{Got: s, Want: "date-time", Err: err}
	}
	var ve *jsonschema.ValidationError
	if !errors.As(sch.Validate(s), &ve) {
		return nil
	}
	for len(ve.Causes) > 0 {
		ve = ve.Causes[0]
	}
	return ve.ErrorKind
}
