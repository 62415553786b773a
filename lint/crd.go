package lint

import (
	"crypto/sha256"
	"fmt"
	"runtime"
	"strconv"

	"golang.org/x/sync/errgroup"

	"github.com/kubeplan/kubeplan/manifest"
)

// crdVersion is one version of a CustomResourceDefinition found in the set
// or in --crds. It keeps what messages need and the version's schema, which
// is compiled only when a custom resource of that version is checked.
type crdVersion struct {
	at     crdRef
	file   string // the CRD's file and first line, for messages
	line   int
	index  int // position in spec.versions
	name   string
	served bool
	schema *crdSchema // nil when the version has no schema; shared by versions with the same schema
}

// crdRef is where a CRD object is: the object itself when it is in memory
// anyway (a loaded set, --crds), else its source and position there, to
// load it again for a finding.
type crdRef struct {
	obj      *manifest.Object
	src, idx int
}

// crdKey identifies a custom resource type.
func crdKey(group, version, kind string) string { return group + "/" + version + "/" + kind }

// crdSet is the CustomResourceDefinitions of a run, by group/version/kind,
// and their distinct schemas.
type crdSet struct {
	versions map[string]*crdVersion
	schemas  map[[32]byte]*crdSchema
	order    []*crdSchema // in the order first seen
	all      []*crdVersion
}

func newCRDSet() *crdSet {
	return &crdSet{versions: map[string]*crdVersion{}, schemas: map[[32]byte]*crdSchema{}}
}

// crdDraft is one CRD version read from its object, before it joins a
// crdSet: its schema is already compact, compressed JSON.
type crdDraft struct {
	key string
	cv  *crdVersion
	url string
	sum [32]byte
	z   []byte // nil when the version has no schema
	n   int64  // uncompressed size
	// plain is plainlyValid's verdict: the schema compiles for sure.
	plain bool
}

// crdDrafts reads the versions of o if it is an apiextensions.k8s.io/v1
// CRD. Only what a check needs is kept: each openAPIV3Schema as
// compressed JSON, none of o's maps or parse tree. It is safe to call
// from several goroutines.
func crdDrafts(o *manifest.Object, at crdRef) ([]crdDraft, error) {
	if o.Kind != "CustomResourceDefinition" || o.Group() != "apiextensions.k8s.io" || o.Version() != "v1" {
		return nil, nil
	}
	group := o.GetString("spec", "group")
	kind := o.GetString("spec", "names", "kind")
	versions, _ := mustGet(o, "spec", "versions").([]any)
	if group == "" || kind == "" {
		return nil, nil // the schema check reports the missing fields
	}
	start := o.Start()
	var out []crdDraft
	for i, vv := range versions {
		vm, _ := vv.(map[string]any)
		name, _ := vm["name"].(string)
		if name == "" {
			continue
		}
		d := crdDraft{key: crdKey(group, name, kind), cv: &crdVersion{at: at, file: o.File, line: start.Line, index: i, name: name}}
		d.cv.served, _ = vm["served"].(bool)
		sch, _ := vm["schema"].(map[string]any)
		if raw, ok := sch["openAPIV3Schema"].(map[string]any); ok {
			b, err := appendJSON(nil, raw)
			if err != nil {
				return nil, fmt.Errorf("keeping the schema of %s: %w", d.key, err)
			}
			if d.z, err = compress(b); err != nil {
				return nil, fmt.Errorf("keeping the schema of %s: %w", d.key, err)
			}
			d.sum, d.n = sha256.Sum256(b), int64(len(b))
			d.plain = plainlyValidCRD(raw)
			d.url = fmt.Sprintf("mem:///crd/%s/%s/%s.json", group, name, kind)
		}
		out = append(out, d)
	}
	return out, nil
}

// add indexes the versions of o, see crdDrafts.
func (cs *crdSet) add(o *manifest.Object, at crdRef) error {
	ds, err := crdDrafts(o, at)
	if err != nil {
		return err
	}
	cs.merge(ds)
	return nil
}

// merge adds drafts: the first version of a group/version/kind wins, and
// versions with the same schema share one crdSchema.
func (cs *crdSet) merge(ds []crdDraft) {
	for _, d := range ds {
		if _, dup := cs.versions[d.key]; dup {
			continue
		}
		if d.z != nil {
			s, ok := cs.schemas[d.sum]
			if !ok {
				s = &crdSchema{url: d.url, data: d.z, size: d.n, plainlyValid: d.plain}
				cs.schemas[d.sum] = s
				cs.order = append(cs.order, s)
			}
			d.cv.schema = s
		}
		cs.versions[d.key] = d.cv
		cs.all = append(cs.all, d.cv)
	}
}

// collectCRDs indexes every apiextensions.k8s.io/v1 CRD of objs (in
// memory) by group/version/kind.
func collectCRDs(objs []*manifest.Object) (*crdSet, error) {
	cs := newCRDSet()
	for _, o := range objs {
		if err := cs.add(o, crdRef{obj: o}); err != nil {
			return nil, err
		}
	}
	return cs, nil
}

// schemaFindings reports, as crd-schema findings on the CRD, every version
// whose openAPIV3Schema does not compile. Schemas no custom resource
// needed are compiled here, once, only to check them, and dropped: an
// invalid CRD is reported whether or not the set uses it. load loads a
// source again, for CRDs not kept in memory.
func (cs *crdSet) schemaFindings(load func(src int) ([]*manifest.Object, error)) ([]Finding, error) {
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for _, s := range cs.order {
		g.Go(func() error {
			s.check()
			return nil
		})
	}
	_ = g.Wait()
	var out []Finding
	loaded := map[int][]*manifest.Object{}
	for _, cv := range cs.all {
		if cv.schema == nil || cv.schema.checkErr() == nil {
			continue
		}
		o := cv.at.obj
		if o == nil {
			objs, ok := loaded[cv.at.src]
			if !ok {
				var err error
				if objs, err = load(cv.at.src); err != nil {
					return nil, err
				}
				loaded[cv.at.src] = objs
			}
			if cv.at.idx >= len(objs) {
				continue // the source changed since
			}
			o = objs[cv.at.idx]
		}
		out = append(out, objectFinding(o,
			[]string{"spec", "versions", strconv.Itoa(cv.index), "schema", "openAPIV3Schema"}, Error, "crd-schema",
			fmt.Sprintf("the openAPIV3Schema of version %s is not a valid schema: %v", cv.name, cv.schema.checkErr())))
	}
	return out, nil
}

// CRDToJSONSchema converts a CRD version's openAPIV3Schema into the strict
// JSON schema kubeplan validates its custom resources with (for tools and
// benchmarks that must use the very same schema).
func CRDToJSONSchema(openAPIV3Schema map[string]any) map[string]any {
	return crdToJSONSchema(openAPIV3Schema, true)
}

func mustGet(o *manifest.Object, path ...string) any {
	v, _ := o.Get(path...)
	return v
}

// crdToJSONSchema converts a structural OpenAPI v3 schema into the JSON
// schema the validator understands, with the API server's semantics:
// nullable, int-or-string, preserve-unknown-fields, embedded resources, and
// unknown fields rejected (kubectl's default strict field validation).
func crdToJSONSchema(s map[string]any, root bool) map[string]any {
	out := make(map[string]any, len(s))
	for k, v := range s {
		switch k {
		case "properties", "patternProperties":
			props, _ := v.(map[string]any)
			np := make(map[string]any, len(props))
			for pk, pv := range props {
				if pm, ok := pv.(map[string]any); ok {
					np[pk] = crdToJSONSchema(pm, false)
				}
			}
			out[k] = np
		case "items", "additionalProperties", "not":
			if m, ok := v.(map[string]any); ok {
				out[k] = crdToJSONSchema(m, false)
			} else {
				out[k] = v
			}
		case "allOf", "anyOf", "oneOf":
			list, _ := v.([]any)
			nl := make([]any, 0, len(list))
			for _, it := range list {
				if m, ok := it.(map[string]any); ok {
					nl = append(nl, crdToJSONSchema(m, false))
				}
			}
			out[k] = nl
		case "nullable", "x-kubernetes-validations", "description", "example", "externalDocs":
			// handled below or not validation
		default:
			out[k] = v
		}
	}
	preserve, _ := s["x-kubernetes-preserve-unknown-fields"].(bool)
	if ios, _ := s["x-kubernetes-int-or-string"].(bool); ios {
		delete(out, "type")
		if _, has := out["anyOf"]; !has {
			out["anyOf"] = []any{map[string]any{"type": "integer"}, map[string]any{"type": "string"}}
		}
	}
	embedded, _ := s["x-kubernetes-embedded-resource"].(bool)
	if root || embedded {
		props, _ := out["properties"].(map[string]any)
		if props == nil && !preserve {
			props = map[string]any{}
		}
		if props != nil {
			for _, f := range []string{"apiVersion", "kind"} {
				if _, ok := props[f]; !ok {
					props[f] = map[string]any{"type": "string"}
				}
			}
			if _, ok := props["metadata"]; !ok {
				props["metadata"] = map[string]any{"type": "object"}
			}
			out["properties"] = props
		}
	}
	if t, _ := out["type"].(string); (t == "object" || out["properties"] != nil) && !preserve {
		if _, has := out["additionalProperties"]; !has && out["properties"] != nil {
			out["additionalProperties"] = false
		}
	}
	if n, _ := s["nullable"].(bool); n {
		if t, ok := out["type"].(string); ok {
			out["type"] = []any{t, "null"}
		}
	}
	return out
}
