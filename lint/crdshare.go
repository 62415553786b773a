package lint

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// minShared is the smallest subschema, in schema nodes, worth sharing.
const minShared = 8

// shareSubschemas moves every subschema that occurs more than once in doc
// (a pod template under several replica specs, a container under
// containers and initContainers) into doc's definitions, once, and points
// each occurrence at it with $ref. The validator then compiles and holds
// each of them once: large CRDs repeat such subtrees many times. Validation
// is unchanged; schema locations in errors name the definition.
func shareSubschemas(doc map[string]any) map[string]any {
	s := &sharer{hashes: map[string]string{}, count: map[string]int{}, size: map[string]int{}}
	s.hash(doc, "")
	defs := map[string]any{}
	out := s.children(doc, "", defs)
	if len(defs) > 0 {
		out["definitions"] = defs
	}
	return out
}

// sharer holds, by JSON pointer, the hash of every subschema of a
// document, and how often and how large each distinct one is.
type sharer struct {
	hashes map[string]string // pointer -> hash
	count  map[string]int    // hash -> occurrences
	size   map[string]int    // hash -> schema nodes
}

// eachSub calls f for every subschema directly under m, with its pointer
// suffix, and lets f replace it.
func eachSub(m map[string]any, f func(suffix string, sub map[string]any) any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		switch k {
		case "properties", "patternProperties":
			props, _ := v.(map[string]any)
			np := make(map[string]any, len(props))
			for pk, pv := range props {
				if pm, ok := pv.(map[string]any); ok {
					np[pk] = f("/"+k+"/"+pk, pm)
				} else {
					np[pk] = pv
				}
			}
			out[k] = np
		case "items", "additionalProperties", "not":
			if pm, ok := v.(map[string]any); ok {
				out[k] = f("/"+k, pm)
			} else {
				out[k] = v
			}
		case "allOf", "anyOf", "oneOf":
			list, _ := v.([]any)
			nl := make([]any, len(list))
			for i, it := range list {
				if pm, ok := it.(map[string]any); ok {
					nl[i] = f("/"+k+"/"+strconv.Itoa(i), pm)
				} else {
					nl[i] = it
				}
			}
			out[k] = nl
		default:
			out[k] = v
		}
	}
	return out
}

// hash records the hash of the subschema m at ptr (its keywords, with its
// subschemas replaced by their hashes) and returns its size in nodes.
func (s *sharer) hash(m map[string]any, ptr string) int {
	size := 1
	shallow := eachSub(m, func(suffix string, sub map[string]any) any {
		size += s.hash(sub, ptr+suffix)
		return s.hashes[ptr+suffix]
	})
	b, _ := appendJSON(nil, shallow)
	sum := sha256.Sum256(b)
	h := hex.EncodeToString(sum[:12])
	s.hashes[ptr] = h
	if ptr != "" {
		s.count[h]++
		s.size[h] = size
	}
	return size
}

// children is m with each subschema replaced by a $ref when it is shared.
func (s *sharer) children(m map[string]any, ptr string, defs map[string]any) map[string]any {
	return eachSub(m, func(suffix string, sub map[string]any) any {
		p := ptr + suffix
		h := s.hashes[p]
		if s.count[h] < 2 || s.size[h] < minShared {
			return s.children(sub, p, defs)
		}
		name := "s" + h
		if _, done := defs[name]; !done {
			defs[name] = nil // taken, so that the recursion below does not redo it
			defs[name] = s.children(sub, p, defs)
		}
		return map[string]any{"$ref": "#/definitions/" + name}
	})
}
