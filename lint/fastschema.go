package lint

import (
	"strconv"
	"strings"
)

// A fastSchema is a built-in Kubernetes schema compiled for the small part
// of JSON Schema draft 4 those schemas use: type, properties,
// additionalProperties, items, required, local $ref, oneOf and the
// date-time format. It validates as jsonschema/v6 does and reports the same
// errors (fastschema_validate.go), at a fraction of the cost: compiling
// the Deployment schema with jsonschema takes about 7 ms, most of what a
// pre-commit hook's lint of one file does, because jsonschema first
// validates every schema against the draft's metaschema.
//
// compileFast returns nil for a schema that uses anything else, and the
// caller compiles that one with jsonschema; fastschema_test.go checks both
// agree on every built-in schema.
type fastSchema struct {
	root *fastNode
}

// fastNode is one schema object.
type fastNode struct {
	loc       string // where it is in the document, as jsonschema names it: "#/definitions/..."
	types     fastTypes
	dateTime  bool
	ref       *fastNode
	props     map[string]*fastNode
	addl      *fastNode // additionalProperties as a schema
	addlFalse bool      // additionalProperties: false
	items     *fastNode
	required  []string
	oneOf     []*fastNode
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
	n := &fastNode{loc: "#" + ptr}
	c.byLoc[ptr] = n
	for k, v := range m {
		if !c.ok {
			return n
		}
		switch k {
		case "type":
			c.ok = n.setTypes(v)
		case "format":
			f, isStr := v.(string)
			switch {
			case !isStr:
				c.ok = false
			case f == "date-time":
				n.dateTime = true
			case assertedFormats[f]:
				c.ok = false
			}
		case "$ref":
			s, isStr := v.(string)
			if !isStr || !strings.HasPrefix(s, "#/") {
				c.ok = false
				break
			}
			target, found := c.resolve(s[1:])
			if !found {
				c.ok = false
				break
			}
			n.ref = c.node(target, s[1:])
		case "properties":
			props, isMap := v.(map[string]any)
			if !isMap {
				c.ok = false
				break
			}
			n.props = make(map[string]*fastNode, len(props))
			for name, ps := range props {
				sm, isMap := ps.(map[string]any)
				if !isMap {
					c.ok = false
					break
				}
				n.props[name] = c.node(sm, ptr+"/properties/"+escapePointer(name))
			}
		case "additionalProperties":
			switch a := v.(type) {
			case bool:
				n.addlFalse = !a
			case map[string]any:
				n.addl = c.node(a, ptr+"/additionalProperties")
			default:
				c.ok = false
			}
		case "items":
			im, isMap := v.(map[string]any)
			if !isMap {
				c.ok = false
				break
			}
			n.items = c.node(im, ptr+"/items")
		case "required":
			l, isList := v.([]any)
			if !isList {
				c.ok = false
				break
			}
			for _, r := range l {
				s, isStr := r.(string)
				if !isStr {
					c.ok = false
					break
				}
				n.required = append(n.required, s)
			}
		case "oneOf":
			l, isList := v.([]any)
			if !isList || len(l) == 0 {
				c.ok = false
				break
			}
			for i, s := range l {
				sm, isMap := s.(map[string]any)
				if !isMap {
					c.ok = false
					break
				}
				n.oneOf = append(n.oneOf, c.node(sm, ptr+"/oneOf/"+strconv.Itoa(i)))
			}
		case "definitions":
			// compiled when a $ref reaches them
			if _, isMap := v.(map[string]any); !isMap {
				c.ok = false
			}
		case "description", "title":
		default:
			if !strings.HasPrefix(k, "x-") { // x-kubernetes-* annotations
				c.ok = false
			}
		}
	}
	return n
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

func escapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}
