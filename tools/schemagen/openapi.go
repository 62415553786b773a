package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
)

// gvk is one GroupVersionKind; Group is "" for the core group.
type gvk struct{ Group, Version, Kind string }

// spec is the union of components.schemas over every OpenAPI v3 document of
// a Kubernetes release, plus which schema defines each GroupVersionKind.
type spec struct {
	defs  map[string]map[string]any // component name -> raw schema
	kinds map[gvk]string            // GroupVersionKind -> component name
}

const gvkExtension = "x-kubernetes-group-version-kind"

// loadSpec reads api/openapi-spec/v3/*.json of a k8s.io/kubernetes module.
// The same component appears in several documents; its copies may differ only
// in the GroupVersionKinds they list (DeleteOptions, WatchEvent), which are
// merged. Any other difference is an error.
func loadSpec(kubeDir string) (*spec, error) {
	files, err := filepath.Glob(filepath.Join(kubeDir, "api", "openapi-spec", "v3", "*.json"))
	if err != nil {
		return nil, err
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no OpenAPI v3 documents under %s", kubeDir)
	}
	sort.Strings(files)

	s := &spec{defs: map[string]map[string]any{}, kinds: map[gvk]string{}}
	for _, f := range files {
		var doc struct {
			Components struct {
				Schemas map[string]map[string]any `json:"schemas"`
			} `json:"components"`
		}
		if err := readJSON(f, &doc); err != nil {
			return nil, err
		}
		for name, def := range doc.Components.Schemas {
			kinds, err := gvksOf(def)
			if err != nil {
				return nil, fmt.Errorf("%s: %s: %v", filepath.Base(f), name, err)
			}
			if prev, ok := s.defs[name]; ok && !sameIgnoringGVK(prev, def) {
				return nil, fmt.Errorf("%s: schema %s differs from an earlier document", filepath.Base(f), name)
			} else if !ok {
				s.defs[name] = def
			}
			for _, k := range kinds {
				if other, ok := s.kinds[k]; ok && other != name {
					return nil, fmt.Errorf("%v is defined by both %s and %s", k, other, name)
				}
				s.kinds[k] = name
			}
		}
	}
	return s, nil
}

func gvksOf(def map[string]any) ([]gvk, error) {
	raw, ok := def[gvkExtension]
	if !ok {
		return nil, nil
	}
	list, ok := raw.([]any)
	if !ok {
		return nil, fmt.Errorf("%s is not a list", gvkExtension)
	}
	var out []gvk
	for _, item := range list {
		m, ok := item.(map[string]any)
		if !ok {
			return nil, fmt.Errorf("%s entry is not an object", gvkExtension)
		}
		g, _ := m["group"].(string)
		v, _ := m["version"].(string)
		k, _ := m["kind"].(string)
		if v == "" || k == "" {
			return nil, fmt.Errorf("%s entry without version or kind", gvkExtension)
		}
		out = append(out, gvk{g, v, k})
	}
	return out, nil
}

func sameIgnoringGVK(a, b map[string]any) bool {
	strip := func(m map[string]any) map[string]any {
		c := make(map[string]any, len(m))
		for k, v := range m {
			if k != gvkExtension {
				c[k] = v
			}
		}
		return c
	}
	return reflect.DeepEqual(strip(a), strip(b))
}

// readJSON decodes a file keeping numbers as json.Number, so that values are
// written back exactly as the source has them.
func readJSON(path string, v any) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	dec := json.NewDecoder(f)
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// fileName is the schema file name kubeconform v0.8.0 looks up for this
// GroupVersionKind with the template "{{ .ResourceKind }}{{ .KindSuffix }}.json":
// lowercased kind, then "-" and the first dot-separated segment of the group,
// then "-" and the version, all lowercased; the core group adds only "-v1".
func (k gvk) fileName() string {
	suffix := ""
	if k.Group != "" {
		suffix = "-" + strings.ToLower(strings.SplitN(k.Group, ".", 2)[0])
	}
	return strings.ToLower(k.Kind) + suffix + "-" + strings.ToLower(k.Version) + ".json"
}
