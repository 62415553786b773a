package lint

import (
	"encoding/json"
	"math"
	"math/big"
	"slices"
	"strconv"
	"unicode/utf8"

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
// jsonschema's validator: an invalid value, type, enum and format stop at
// the first error; a draft 4 $ref is the whole node; then the keywords of
// v's type (object: min/maxProperties, required, properties,
// patternProperties, additionalProperties; array: min/maxItems,
// uniqueItems, items; string: min/maxLength, pattern; number: minimum,
// maximum, exclusive bounds, multipleOf), and not, allOf, anyOf, oneOf.
//
// Errors under a subschema are appended flat, where jsonschema nests
// them in groups: only the leaves are read, and the causes of oneOf and
// anyOf errors, which are built as jsonschema builds them (groupErrors).
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
	if n.enum != nil && !n.inEnum(v) {
		*errs = append(*errs, n.err(loc, &kind.Enum{Got: v, Want: n.enum}))
		return
	}
	if n.format != nil {
		if k := n.format.check(v); k != nil {
			*errs = append(*errs, n.err(loc, k))
			return
		}
	}
	if n.ref != nil {
		// jsonschema wraps the target's errors in one reference error; an
		// anyOf or oneOf that has it as a cause reads it so
		var sub []*jsonschema.ValidationError
		n.ref.validate(v, loc, &sub)
		if len(sub) > 0 {
			e := n.err(loc, &kind.Reference{Keyword: "$ref", URL: n.ref.loc})
			e.Causes = sub
			*errs = append(*errs, e)
		}
		return
	}
	switch v := v.(type) {
	case map[string]any:
		if n.object != nil {
			n.validateObject(v, loc, errs)
		}
	case []any:
		if n.array != nil {
			n.validateArray(v, loc, errs)
		}
	case string:
		if n.str != nil {
			n.validateString(v, loc, errs)
		}
	default:
		if n.num != nil && t == tNumber {
			n.validateNumber(v, loc, errs)
		}
	}
	if n.hasOther {
		n.validateOther(v, loc, errs)
	}
}

func (n *fastNode) inEnum(v any) bool {
	for _, it := range n.enum {
		if ok, _ := fastEquals(v, it); ok { // scalar items: never an error
			return true
		}
	}
	return false
}

func (n *fastNode) validateObject(obj map[string]any, loc []string, errs *[]*jsonschema.ValidationError) {
	o := n.object
	if o.minProps >= 0 && len(obj) < o.minProps {
		*errs = append(*errs, n.err(loc, &kind.MinProperties{Got: len(obj), Want: o.minProps}))
	}
	if o.maxProps >= 0 && len(obj) > o.maxProps {
		*errs = append(*errs, n.err(loc, &kind.MaxProperties{Got: len(obj), Want: o.maxProps}))
	}
	var missing []string
	for _, r := range o.required {
		if _, ok := obj[r]; !ok {
			missing = append(missing, r)
		}
	}
	if missing != nil {
		*errs = append(*errs, n.err(loc, &kind.Required{Missing: missing}))
	}
	var additional []string
	for name, pv := range obj {
		evaluated := false
		if ps, ok := o.props[name]; ok {
			evaluated = true
			ps.validate(pv, append(loc, name), errs)
		}
		for _, pp := range o.patProps {
			if pp.re.MatchString(name) {
				evaluated = true
				pp.node.validate(pv, append(loc, name), errs)
			}
		}
		switch {
		case evaluated:
		case o.addl != nil:
			o.addl.validate(pv, append(loc, name), errs)
		case o.addlFalse:
			additional = append(additional, name)
		}
	}
	if len(additional) > 0 {
		slices.Sort(additional)
		*errs = append(*errs, n.err(loc, &kind.AdditionalProperties{Properties: additional}))
	}
}

func (n *fastNode) validateArray(arr []any, loc []string, errs *[]*jsonschema.ValidationError) {
	a := n.array
	if a.minItems >= 0 && len(arr) < a.minItems {
		*errs = append(*errs, n.err(loc, &kind.MinItems{Got: len(arr), Want: a.minItems}))
	}
	if a.maxItems >= 0 && len(arr) > a.maxItems {
		*errs = append(*errs, n.err(loc, &kind.MaxItems{Got: len(arr), Want: a.maxItems}))
	}
	if a.unique && len(arr) > 1 {
		i, j, k := fastDuplicates(arr)
		if k != nil {
			*errs = append(*errs, n.err(loc, k))
		} else if i != -1 {
			*errs = append(*errs, n.err(loc, &kind.UniqueItems{Duplicates: [2]int{i, j}}))
		}
	}
	if a.items != nil {
		for i, item := range arr {
			a.items.validate(item, append(loc, strconv.Itoa(i)), errs)
		}
	}
}

func (n *fastNode) validateString(s string, loc []string, errs *[]*jsonschema.ValidationError) {
	st := n.str
	if st.minLen >= 0 || st.maxLen >= 0 {
		l := utf8.RuneCountInString(s)
		if st.minLen >= 0 && l < st.minLen {
			*errs = append(*errs, n.err(loc, &kind.MinLength{Got: l, Want: st.minLen}))
		}
		if st.maxLen >= 0 && l > st.maxLen {
			*errs = append(*errs, n.err(loc, &kind.MaxLength{Got: l, Want: st.maxLen}))
		}
	}
	if st.pattern != nil && !st.pattern.MatchString(s) {
		*errs = append(*errs, n.err(loc, &kind.Pattern{Got: s, Want: st.pattern.String()}))
	}
}

func (n *fastNode) validateNumber(v any, loc []string, errs *[]*jsonschema.ValidationError) {
	nm := n.num
	got := func() *big.Rat { r, _ := ratOf(v); return r }
	if nm.min != nil && cmpNum(v, nm.min) < 0 {
		*errs = append(*errs, n.err(loc, &kind.Minimum{Got: got(), Want: nm.min.rat}))
	}
	if nm.max != nil && cmpNum(v, nm.max) > 0 {
		*errs = append(*errs, n.err(loc, &kind.Maximum{Got: got(), Want: nm.max.rat}))
	}
	if nm.exMin != nil && cmpNum(v, nm.exMin) <= 0 {
		*errs = append(*errs, n.err(loc, &kind.ExclusiveMinimum{Got: got(), Want: nm.exMin.rat}))
	}
	if nm.exMax != nil && cmpNum(v, nm.exMax) >= 0 {
		*errs = append(*errs, n.err(loc, &kind.ExclusiveMaximum{Got: got(), Want: nm.exMax.rat}))
	}
	if nm.multipleOf != nil && !isMultiple(v, nm.multipleOf) {
		*errs = append(*errs, n.err(loc, &kind.MultipleOf{Got: got(), Want: nm.multipleOf.rat}))
	}
}

// validateOther is jsonschema's not, allOf, anyOf and oneOf, in that
// order. A subschema's errors become one cause: the error itself, or a
// group of them.
func (n *fastNode) validateOther(v any, loc []string, errs *[]*jsonschema.ValidationError) {
	if n.not != nil && n.not.valid(v) {
		*errs = append(*errs, n.err(loc, &kind.Not{}))
	}
	if len(n.allOf) > 0 {
		var causes []*jsonschema.ValidationError
		for _, sub := range n.allOf {
			if sub.valid(v) {
				continue
			}
			var subErrs []*jsonschema.ValidationError
			sub.validate(v, loc, &subErrs)
			causes = append(causes, groupErrors(sub, loc, subErrs))
		}
		if len(causes) > 0 {
			e := n.err(loc, &kind.AllOf{})
			e.Causes = causes
			*errs = append(*errs, e)
		}
	}
	if len(n.anyOf) > 0 && !n.anyValid(v) {
		causes := make([]*jsonschema.ValidationError, 0, len(n.anyOf))
		for _, sub := range n.anyOf {
			var subErrs []*jsonschema.ValidationError
			sub.validate(v, loc, &subErrs)
			causes = append(causes, groupErrors(sub, loc, subErrs))
		}
		e := n.err(loc, &kind.AnyOf{})
		e.Causes = causes
		*errs = append(*errs, e)
	}
	if len(n.oneOf) > 0 {
		n.validateOneOf(v, loc, errs)
	}
}

func (n *fastNode) anyValid(v any) bool {
	for _, sub := range n.anyOf {
		if sub.valid(v) {
			return true
		}
	}
	return false
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
	if n.enum != nil && !n.inEnum(v) {
		return false
	}
	if n.format != nil && n.format.check(v) != nil {
		return false
	}
	if n.ref != nil {
		return n.ref.valid(v)
	}
	switch v := v.(type) {
	case map[string]any:
		if n.object != nil && !n.object.valid(v) {
			return false
		}
	case []any:
		if n.array != nil && !n.array.valid(v) {
			return false
		}
	case string:
		if n.str != nil && !n.str.valid(v) {
			return false
		}
	default:
		if n.num != nil && t == tNumber && !n.num.valid(v) {
			return false
		}
	}
	if !n.hasOther {
		return true
	}
	if n.not != nil && n.not.valid(v) {
		return false
	}
	for _, sub := range n.allOf {
		if !sub.valid(v) {
			return false
		}
	}
	if len(n.anyOf) > 0 && !n.anyValid(v) {
		return false
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

func (o *fastObject) valid(obj map[string]any) bool {
	if (o.minProps >= 0 && len(obj) < o.minProps) || (o.maxProps >= 0 && len(obj) > o.maxProps) {
		return false
	}
	for _, r := range o.required {
		if _, ok := obj[r]; !ok {
			return false
		}
	}
	for name, pv := range obj {
		evaluated := false
		if ps, ok := o.props[name]; ok {
			if !ps.valid(pv) {
				return false
			}
			evaluated = true
		}
		for _, pp := range o.patProps {
			if pp.re.MatchString(name) {
				if !pp.node.valid(pv) {
					return false
				}
				evaluated = true
			}
		}
		if !evaluated && ((o.addl != nil && !o.addl.valid(pv)) || (o.addl == nil && o.addlFalse)) {
			return false
		}
	}
	return true
}

func (a *fastArray) valid(arr []any) bool {
	if (a.minItems >= 0 && len(arr) < a.minItems) || (a.maxItems >= 0 && len(arr) > a.maxItems) {
		return false
	}
	if a.unique && len(arr) > 1 {
		if i, _, k := fastDuplicates(arr); i != -1 || k != nil {
			return false
		}
	}
	if a.items != nil {
		for _, item := range arr {
			if !a.items.valid(item) {
				return false
			}
		}
	}
	return true
}

func (st *fastString) valid(s string) bool {
	if st.minLen >= 0 || st.maxLen >= 0 {
		l := utf8.RuneCountInString(s)
		if (st.minLen >= 0 && l < st.minLen) || (st.maxLen >= 0 && l > st.maxLen) {
			return false
		}
	}
	return st.pattern == nil || st.pattern.MatchString(s)
}

func (nm *fastNumber) valid(v any) bool {
	return (nm.min == nil || cmpNum(v, nm.min) >= 0) &&
		(nm.max == nil || cmpNum(v, nm.max) <= 0) &&
		(nm.exMin == nil || cmpNum(v, nm.exMin) > 0) &&
		(nm.exMax == nil || cmpNum(v, nm.exMax) < 0) &&
		(nm.multipleOf == nil || isMultiple(v, nm.multipleOf))
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
	case json.Number, int, int8, int16, int32, int64, uint, uint8, uint16, uint32, uint64:
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
	case json.Number:
		r, ok := ratOf(v)
		return ok && r.IsInt()
	}
	return true
}
