package lint

import (
	"net/url"
	"regexp"
	"strconv"
	"strings"
)

// A fastSchema is a built-in Kubernetes schema, or a CRD's schema as
// crdToJSONSchema makes it, compiled for the part of JSON Schema draft 4
// those schemas use: type, enum (of scalars), the asserted formats, local
// $ref, properties, patternProperties, additionalProperties, required,
// min/maxProperties, items (one schema), min/maxItems, uniqueItems,
// min/maxLength, pattern, minimum, maximum, exclusiveMinimum/Maximum,
// multipleOf, not, allOf, anyOf and oneOf. It validates as jsonschema/v6
// does and reports the same errors (fastschema_validate.go), at a fraction
// of the cost: compiling the Deployment schema with jsonschema takes about
// 7 ms, most of what a pre-commit hook's lint of one file does, because
// jsonschema first validates every schema against the draft's metaschema.
//
// compileFast does not check the schema as the metaschema would: it
// returns nil for anything outside the subset or that it cannot read
// (and the caller compiles that one with jsonschema), but a value the
// metaschema rejects that the subset can still read, such as a required
// list with duplicates, is taken. Callers use it on schemas that are
// valid: the built-in ones, and CRD schemas plainlyValid vouched for.
// fastschema_test.go and fastschema_crd_test.go check both agree.
type fastSchema struct {
	root *fastNode
}

// fastNode is one schema object. Its keywords are checked in the order
// jsonschema's validator checks them (fastschema_validate.go).
type fastNode struct {
	loc      string // where it is in the document, as jsonschema names it: "#/definitions/..."
	types    fastTypes
	enum     []any // scalars only
	format   *fastFormat
	ref      *fastNode // draft 4: a node with $ref has nothing else
	not      *fastNode
	allOf    []*fastNode
	anyOf    []*fastNode
	oneOf    []*fastNode
	object   *fastObject
	array    *fastArray
	str      *fastString
	num      *fastNumber
	hasOther bool // any of not, allOf, anyOf, oneOf
}

// fastObject is a node's object keywords.
type fastObject struct {
	minProps, maxProps int // -1 when absent
	required           []string
	props              map[string]*fastNode
	patProps           []fastPattern
	addl               *fastNode // additionalProperties as a schema
	addlFalse          bool      // additionalProperties: false
}

type fastPattern struct {
	re   *regexp.Regexp
	node *fastNode
}

// fastArray is a node's array keywords.
type fastArray struct {
	minItems, maxItems int // -1 when absent
	unique             bool
	items              *fastNode
}

// fastString is a node's string keywords.
type fastString struct {
	minLen, maxLen int // -1 when absent, in runes
	pattern        *regexp.Regexp
}

// fastNumber is a node's number keywords, exclusive bounds as draft 4
// has them: a flag that turns minimum into an exclusive minimum.
type fastNumber struct {
	min, max, exMin, exMax, multipleOf *fastNum
}

// fastTypes is a set of JSON types, in jsonschema's order.
type fastTypes uint8

const (
	tNull fastTypes = 1 << iota
	tBoolean
	tNumber
	tInteger
	tString
	tArray
	tObject
)

var fastTypeNames = [...]struct {
	t    fastTypes
	name string
}{{tNull, "null"}, {tBoolean, "boolean"}, {tNumber, "number"}, {tInteger, "integer"}, {tString, "string"}, {tArray, "array"}, {tObject, "object"}}

func (ts fastTypes) strings() []string {
	var out []string
	for _, n := range fastTypeNames {
		if ts&n.t != 0 {
			out = append(out, n.name)
		}
	}
	return out
}

// assertedFormats are the formats jsonschema/v6 checks under draft 4 (its
// list, plus duration, which compileSchema registers). Of them, a fast
// schema checks date-time only; a schema with another falls back.
// Formats outside the list (int32, int64, byte, double, int-or-string)
// are not checked by either.
var assertedFormats = map[string]bool{
	"regex": true, "ipv4": true, "ipv6": true, "hostname": true, "email": true, "date": true, "time": true,
	"date-time": true, "uri": true, "iri": true, "uri-reference": true, "iri-reference": true,
	"uri-template": true, "semver": true, "json-pointer": true, "relative-json-pointer": true,
	"uuid": true, "duration": true, "period": true, "idn-email": true, "idn-hostname": true,
}

// compileFast compiles doc, or returns nil when doc is not in the subset.
func compileFast(doc any) *fastSchema {
	root, ok := doc.(map[string]any)
	if !ok {
		return nil
	}
	c := &fastCompiler{root: root, byLoc: map[string]*fastNode{}, ok: true}
	n := c.node(root, "")
	if !c.ok {
		return nil
	}
	return &fastSchema{root: n}
}

type fastCompiler struct {
	root  map[string]any
	byLoc map[string]*fastNode
	ok    bool
}

// node compiles the schema object m at JSON pointer ptr.
func (c *fastCompiler) node(m map[string]any, ptr string) *fastNode {
	if n, ok := c.byLoc[ptr]; ok {
		return n
	}
	n := &fastNode{loc: "#" + encodePointer(ptr)}
	c.byLoc[ptr] = n
	for k, v := range m {
		if !c.ok {
			return n
		}
		if !c.keyword(n, m, k, v, ptr) {
			c.ok = false // and stays so: nested nodes set it too
		}
	}
	if n.ref != nil { // draft 4: the other keywords of a $ref are ignored
		*n = fastNode{loc: n.loc, ref: n.ref}
	}
	n.hasOther = n.not != nil || n.allOf != nil || n.anyOf != nil || n.oneOf != nil
	return n
}

// keyword compiles one keyword of m into n; false when it is outside the
// subset.
func (c *fastCompiler) keyword(n *fastNode, m map[string]any, k string, v any, ptr string) bool {
	switch k {
	case "type":
		return n.setTypes(v)
	case "enum":
		l, ok := v.([]any)
		if !ok || len(l) == 0 {
			return false
		}
		for _, it := range l {
			if !isScalar(it) {
				return false // objects and lists: jsonschema compares them
			}
		}
		n.enum = l
	case "format":
		f, ok := v.(string)
		if !ok {
			return false
		}
		if assertedFormats[f] {
			n.format = formatChecker(f)
		}
	case "$ref":
		s, isStr := v.(string)
		if !isStr || !strings.HasPrefix(s, "#/") {
			return false
		}
		target, found := c.resolve(s[1:])
		if !found {
			return false
		}
		n.ref = c.node(target, s[1:])
	case "properties":
		props, ok := v.(map[string]any)
		if !ok {
			return false
		}
		o := n.obj()
		o.props = make(map[string]*fastNode, len(props))
		for name, ps := range props {
			sm, ok := ps.(map[string]any)
			if !ok {
				return false
			}
			o.props[name] = c.node(sm, ptr+"/properties/"+escapePointer(name))
		}
	case "patternProperties":
		props, ok := v.(map[string]any)
		if !ok {
			return false
		}
		o := n.obj()
		for p, ps := range props {
			sm, ok := ps.(map[string]any)
			re, err := regexp.Compile(p) // jsonschema's default engine
			if !ok || err != nil {
				return false // a bad pattern: jsonschema reports it
			}
			o.patProps = append(o.patProps, fastPattern{re: re, node: c.node(sm, ptr+"/patternProperties/"+escapePointer(p))})
		}
	case "additionalProperties":
		switch a := v.(type) {
		case bool:
			n.obj().addlFalse = !a
		case map[string]any:
			n.obj().addl = c.node(a, ptr+"/additionalProperties")
		default:
			return false
		}
	case "required":
		l, ok := v.([]any)
		if !ok {
			return false
		}
		o := n.obj()
		for _, r := range l {
			s, ok := r.(string)
			if !ok {
				return false
			}
			o.required = append(o.required, s)
		}
	case "minProperties", "maxProperties":
		i, ok := intKeyword(v)
		if !ok {
			return false
		}
		o := n.obj()
		if k == "minProperties" {
			o.minProps = i
		} else {
			o.maxProps = i
		}
	case "items":
		im, ok := v.(map[string]any)
		if !ok {
			return false // an items list: not in the subset
		}
		n.arr().items = c.node(im, ptr+"/items")
	case "minItems", "maxItems":
		i, ok := intKeyword(v)
		if !ok {
			return false
		}
		if k == "minItems" {
			n.arr().minItems = i
		} else {
			n.arr().maxItems = i
		}
	case "uniqueItems":
		b, ok := v.(bool)
		if !ok {
			return false
		}
		n.arr().unique = b
	case "minLength", "maxLength":
		i, ok := intKeyword(v)
		if !ok {
			return false
		}
		if k == "minLength" {
			n.strs().minLen = i
		} else {
			n.strs().maxLen = i
		}
	case "pattern":
		p, ok := v.(string)
		if !ok {
			return false
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return false // jsonschema reports it
		}
		n.strs().pattern = re
	case "minimum", "maximum", "multipleOf":
		f, ok := numKeyword(v)
		if !ok {
			return false
		}
		nm := n.nums()
		excl, _ := m["exclusive"+strings.ToUpper(k[:1])+k[1:]].(bool)
		switch {
		case k == "multipleOf":
			if f.rat.Sign() <= 0 {
				return false
			}
			nm.multipleOf = f
		case k == "minimum" && excl:
			nm.exMin = f
		case k == "minimum":
			nm.min = f
		case excl:
			nm.exMax = f
		default:
			nm.max = f
		}
	case "exclusiveMinimum", "exclusiveMaximum":
		if _, ok := v.(bool); !ok {
			return false // draft 6's number form
		}
	case "not":
		sm, ok := v.(map[string]any)
		if !ok {
			return false
		}
		n.not = c.node(sm, ptr+"/not")
	case "allOf", "anyOf", "oneOf":
		l, ok := v.([]any)
		if !ok || len(l) == 0 {
			return false
		}
		subs := make([]*fastNode, 0, len(l))
		for i, s := range l {
			sm, ok := s.(map[string]any)
			if !ok {
				return false
			}
			subs = append(subs, c.node(sm, ptr+"/"+k+"/"+strconv.Itoa(i)))
		}
		switch k {
		case "allOf":
			n.allOf = subs
		case "anyOf":
			n.anyOf = subs
		default:
			n.oneOf = subs
		}
	case "definitions":
		// compiled when a $ref reaches them
		if _, ok := v.(map[string]any); !ok {
			return false
		}
	case "description", "title", "default":
		// annotations
	default:
		return strings.HasPrefix(k, "x-") // x-kubernetes-* annotations
	}
	return true
}

func (n *fastNode) obj() *fastObject {
	if n.object == nil {
		n.object = &fastObject{minProps: -1, maxProps: -1}
	}
	return n.object
}

func (n *fastNode) arr() *fastArray {
	if n.array == nil {
		n.array = &fastArray{minItems: -1, maxItems: -1}
	}
	return n.array
}

func (n *fastNode) strs() *fastString {
	if n.str == nil {
		n.str = &fastString{minLen: -1, maxLen: -1}
	}
	return n.str
}

func (n *fastNode) nums() *fastNumber {
	if n.num == nil {
		n.num = &fastNumber{}
	}
	return n.num
}

func (n *fastNode) setTypes(v any) bool {
	add := func(s any) bool {
		name, ok := s.(string)
		if !ok {
			return false
		}
		for _, t := range fastTypeNames {
			if t.name == name {
				n.types |= t.t
				return true
			}
		}
		return false
	}
	switch t := v.(type) {
	case string:
		return add(t)
	case []any:
		for _, s := range t {
			if !add(s) {
				return false
			}
		}
		return len(t) > 0
	}
	return false
}

// resolve finds the schema object at JSON pointer ptr in the document.
func (c *fastCompiler) resolve(ptr string) (map[string]any, bool) {
	var cur any = c.root
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = strings.ReplaceAll(strings.ReplaceAll(tok, "~1", "/"), "~0", "~")
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[tok]; !ok {
			return nil, false
		}
	}
	m, ok := cur.(map[string]any)
	return m, ok
}

// encodePointer is ptr as jsonschema writes it in a schema's location:
// each token path-escaped ("^x-" is "%5Ex-").
func encodePointer(ptr string) string {
	if !strings.ContainsFunc(ptr, func(r rune) bool { return !isPlainPointerRune(r) }) {
		return ptr
	}
	toks := strings.Split(ptr, "/")
	for i, t := range toks {
		toks[i] = url.PathEscape(t)
	}
	return strings.Join(toks, "/")
}

func isPlainPointerRune(r rune) bool {
	return r == '/' || r == '-' || r == '_' || r == '.' || r == '~' ||
		('a' <= r && r <= 'z') || ('A' <= r && r <= 'Z') || ('0' <= r && r <= '9')
}

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
