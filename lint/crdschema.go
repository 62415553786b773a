package lint

import (
	"bytes"
	"compress/flate"
	"encoding/json"
	"fmt"
	"io"
	"sync"
	"sync/atomic"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// crdSchema is one distinct openAPIV3Schema of the run's CRDs. It is kept
// as compressed JSON and compiled the first time a custom resource needs
// it; the compiled validator lives in the run's crdCache, which may evict
// it (it is then compiled again from data when needed).
type crdSchema struct {
	url  string
	data []byte // the openAPIV3Schema, compact JSON, flate-compressed
	size int64  // its uncompressed size, the weight in the cache
	// plainlyValid is set when plainlyValid proved, as the CRD was read,
	// that the schema compiles: check then does not compile it.
	plainlyValid bool

	mu       sync.Mutex // one compile at a time
	compiled atomic.Pointer[crdCompiled]
	tried    atomic.Bool // compiled (or failed) at least once
	err      error       // the compile error; set before tried
	compiles atomic.Int32
	plain    atomic.Int32 // checks plainlyValid settled without compiling
}

// crdCompiled is what validating a custom resource needs: the validator,
// the skeleton of the JSON schema for known-field suggestions, and the
// x-kubernetes-validations rules with their compiled programs.
type crdCompiled struct {
	compiled
	cel *celNode
}

// get returns the compiled schema, compiling it (and adding it to cache)
// when it is not there. A schema that does not compile returns its error
// every time without trying again.
func (s *crdSchema) get(cache *crdCache) (*crdCompiled, error) {
	if c := s.compiled.Load(); c != nil {
		cache.touch(s)
		return c, nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if c := s.compiled.Load(); c != nil {
		cache.touch(s)
		return c, nil
	}
	if s.tried.Load() && s.err != nil {
		return nil, s.err
	}
	c, err := s.compile()
	if err != nil {
		s.err = err
		s.tried.Store(true)
		return nil, err
	}
	s.tried.Store(true)
	s.compiled.Store(c)
	cache.add(s)
	return c, nil
}

// check compiles the schema if it never was, only to learn whether it is
// valid; the result is not kept.
func (s *crdSchema) check() {
	if s.tried.Load() {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tried.Load() {
		return
	}
	s.err = s.checkSchema()
	s.tried.Store(true)
}

// checkSchema is nil when the schema compiles, else the compile error. A
// schema plainlyValid accepted is not compiled.
func (s *crdSchema) checkSchema() error {
	if s.plainlyValid {
		s.plain.Add(1)
		return nil
	}
	_, err := s.validator()
	return err
}

// checkErr is the compile error once the schema was compiled or checked.
func (s *crdSchema) checkErr() error {
	if !s.tried.Load() {
		return nil
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.err
}

// compile decodes, converts and compiles the schema.
func (s *crdSchema) compile() (*crdCompiled, error) {
	v, err := s.validator()
	if err != nil {
		return nil, err
	}
	return &crdCompiled{compiled: compiled{schema: v.schema, fast: v.fast, raw: skeleton(v.doc)}, cel: buildCEL(v.raw)}, nil
}

// crdValidator is a compiled schema with the documents it came from.
type crdValidator struct {
	raw, doc map[string]any // the openAPIV3Schema, and the JSON schema made of it
	schema   *jsonschema.Schema
	fast     *fastSchema // instead of schema
}

// validator decodes, converts and compiles the schema: all a check needs
// (whether it compiles, and the error), without what validating custom
// resources also needs (compile). A schema plainlyValid vouched for is
// compiled by compileFast when it is in the fast subset (most are):
// jsonschema's compile, with its metaschema pass, costs more than the
// custom resources' validation. Anything else is compiled by jsonschema,
// which also reports an invalid schema's error, as a check needs.
func (s *crdSchema) validator() (crdValidator, error) {
	s.compiles.Add(1)
	raw, err := s.decode()
	if err != nil {
		return crdValidator{}, err
	}
	doc := shareSubschemas(crdToJSONSchema(raw, true))
	if s.plainlyValid {
		if f := compileFast(doc); f != nil {
			return crdValidator{raw: raw, doc: doc, fast: f}, nil
		}
	}
	sch, err := compileSchema(s.url, doc)
	if err != nil {
		return crdValidator{}, err
	}
	return crdValidator{raw: raw, doc: doc, schema: sch}, nil
}

// decode is the kept openAPIV3Schema.
func (s *crdSchema) decode() (map[string]any, error) {
	b, err := decompress(s.data)
	if err != nil {
		return nil, fmt.Errorf("reading the kept schema: %w", err)
	}
	var raw map[string]any
	if err := json.Unmarshal(b, &raw); err != nil {
		return nil, fmt.Errorf("reading the kept schema: %w", err)
	}
	return raw, nil
}

// skeleton keeps of a JSON schema only the structure knownFields and the
// yaml11-value check walk (properties, definitions, references, types and
// the keywords that nest schemas), dropping descriptions, enums and the
// rest, which are most of a CRD's size.
func skeleton(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for k, x := range m {
		switch k {
		case "properties", "patternProperties":
			props, _ := x.(map[string]any)
			np := make(map[string]any, len(props))
			for pk, pv := range props {
				np[pk] = skeleton(pv)
			}
			out[k] = np
		case "items", "additionalProperties", "not":
			out[k] = skeleton(x)
		case "type", "$ref":
			out[k] = x
		case "definitions":
			defs, _ := x.(map[string]any)
			nd := make(map[string]any, len(defs))
			for dk, dv := range defs {
				nd[dk] = skeleton(dv)
			}
			out[k] = nd
		case "allOf", "anyOf", "oneOf":
			list, _ := x.([]any)
			nl := make([]any, len(list))
			for i, it := range list {
				nl[i] = skeleton(it)
			}
			out[k] = nl
		}
	}
	return out
}

// flateWriters reuses compressors: each holds about 600 KiB of state, and
// a large set keeps a hundred schemas or more.
var flateWriters = sync.Pool{New: func() any {
	w, _ := flate.NewWriter(nil, flate.BestSpeed) // BestSpeed is a valid level
	return w
}}

func compress(b []byte) ([]byte, error) {
	var buf bytes.Buffer
	w := flateWriters.Get().(*flate.Writer)
	defer flateWriters.Put(w)
	w.Reset(&buf)
	if _, err := w.Write(b); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return bytes.Clone(buf.Bytes()), nil
}

func decompress(z []byte) ([]byte, error) {
	return io.ReadAll(flate.NewReader(bytes.NewReader(z)))
}
