package kubeapi

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
)

// APIResource is a top-level resource a Kubernetes version serves.
type APIResource struct {
	Group      string `json:"group"` // "" for the core group
	Version    string `json:"version"`
	Kind       string `json:"kind"`
	Resource   string `json:"resource"` // plural name, e.g. "deployments"
	Namespaced bool   `json:"namespaced"`
}

// Lifecycle is the prerelease lifecycle of one API type, from k8s.io/api.
type Lifecycle struct {
	Group       string `json:"group"`
	Version     string `json:"version"`
	Kind        string `json:"kind"`
	Introduced  string `json:"introduced,omitempty"`  // "1.16" or ""
	Deprecated  string `json:"deprecated,omitempty"`  // "1.16" or ""
	Removed     string `json:"removed,omitempty"`     // "1.16" or ""
	Replacement string `json:"replacement,omitempty"` // "apps/v1 Deployment" or ""
}

// APIIndex answers which resources each indexed Kubernetes minor serves and
// what the lifecycle of each API type is. Kubernetes versions may be given as
// "1.37", "v1.37" or "1.37.2"; only the minor matters.
type APIIndex struct {
	served    map[string]map[gvk]APIResource      // minor -> GVK -> resource
	byKind    map[string]map[string][]APIResource // minor -> kind -> preferred first
	servedIn  map[gvk][]string
	lifecycle map[gvk]Lifecycle
}

type gvk struct{ group, version, kind string }

// Versions returns the Kubernetes minors the index covers, oldest first.
func Versions() []string { return slices.Clone(indexedVersions) }

var loadIndex = sync.OnceValues(func() (*APIIndex, error) {
	gz, err := artifacts.ReadFile(indexFile)
	if err != nil {
		return nil, err
	}
	return parseIndex(gz)
})

// Index returns the embedded API index, parsed on first use.
func Index() (*APIIndex, error) { return loadIndex() }

// indexData mirrors apis.json.gz as tools/schemagen writes it.
type indexData struct {
	Sources       []string `json:"sources"`
	SchemaVersion string   `json:"schemaVersion"`
	Versions      []struct {
		Version   string            `json:"version"`
		Preferred map[string]string `json:"preferred"`
		Resources []APIResource     `json:"resources"`
	} `json:"versions"`
	Lifecycle []Lifecycle `json:"lifecycle"`
}

func parseIndex(gz []byte) (*APIIndex, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, fmt.Errorf("schemas: %s: %w", indexFile, err)
	}
	var data indexData
	dec := json.NewDecoder(zr)
	dec.DisallowUnknownFields()
	if err := dec.Decode(&data); err != nil {
		return nil, fmt.Errorf("schemas: %s: %w", indexFile, err)
	}

	ix := &APIIndex{
		served:    map[string]map[gvk]APIResource{},
		byKind:    map[string]map[string][]APIResource{},
		servedIn:  map[gvk][]string{},
		lifecycle: map[gvk]Lifecycle{},
	}
	for _, v := range data.Versions {
		served := map[gvk]APIResource{}
		kinds := map[string][]APIResource{}
		for _, r := range v.Resources {
			k := gvk{r.Group, r.Version, r.Kind}
			served[k] = r
			kinds[r.Kind] = append(kinds[r.Kind], r)
			ix.servedIn[k] = append(ix.servedIn[k], v.Version)
		}
		for _, list := range kinds {
			sortPreferred(list, v.Preferred)
		}
		ix.served[v.Version] = served
		ix.byKind[v.Version] = kinds
	}
	for _, l := range data.Lifecycle {
		ix.lifecycle[gvk{l.Group, l.Version, l.Kind}] = l
	}
	mergeGuide(ix.lifecycle)
	return ix, nil
}

// Served reports whether kubeVersion serves group/version kind, and how.
func (ix *APIIndex) Served(kubeVersion, group, version, kind string) (APIResource, bool) {
	r, ok := ix.served[minorOf(kubeVersion)][gvk{group, version, kind}]
	return r, ok
}

// ByKind returns every group/version serving kind in kubeVersion: versions
// preferred by their group first, then stable before beta before alpha, the
// core group before others. Nil if kubeVersion is not indexed or kind unknown.
func (ix *APIIndex) ByKind(kubeVersion, kind string) []APIResource {
	return slices.Clone(ix.byKind[minorOf(kubeVersion)][kind])
}

// Lifecycle returns the lifecycle recorded for group/version kind: types
// with prerelease-lifecycle markers in k8s.io/api, completed and corrected
// by the deprecation guide (see guide).
func (ix *APIIndex) Lifecycle(group, version, kind string) (Lifecycle, bool) {
	l, ok := ix.lifecycle[gvk{group, version, kind}]
	return l, ok
}

// ServedIn returns the indexed minors that serve group/version kind, oldest
// first.
func (ix *APIIndex) ServedIn(group, version, kind string) []string {
	return slices.Clone(ix.servedIn[gvk{group, version, kind}])
}

// minorOf turns "v1.37.2", "1.37.2" or "1.37" into "1.37".
func minorOf(v string) string {
	parts := strings.SplitN(strings.TrimPrefix(v, "v"), ".", 3)
	if len(parts) < 2 {
		return v
	}
	return parts[0] + "." + parts[1]
}

func sortPreferred(list []APIResource, preferred map[string]string) {
	sort.SliceStable(list, func(i, j int) bool {
		a, b := list[i], list[j]
		pa, pb := preferred[a.Group] == a.Version, preferred[b.Group] == b.Version
		if pa != pb {
			return pa
		}
		if c := compareAPIVersions(a.Version, b.Version); c != 0 {
			return c < 0
		}
		if (a.Group == "") != (b.Group == "") {
			return a.Group == ""
		}
		return a.Group < b.Group
	})
}

// compareAPIVersions orders Kubernetes API versions by priority, highest
// first (negative when a comes first): v2 > v1 > v1beta2 > v1beta1 >
// v1alpha1, and well-formed versions before others, which sort by name.
func compareAPIVersions(a, b string) int {
	ra, oka := apiVersionRank(a)
	rb, okb := apiVersionRank(b)
	switch {
	case oka && okb:
		for i := range ra {
			if ra[i] != rb[i] {
				return rb[i] - ra[i]
			}
		}
		return 0
	case oka:
		return -1
	case okb:
		return 1
	}
	return strings.Compare(a, b)
}

// apiVersionRank parses v<major>[(alpha|beta)<n>] into {stability, major, n}
// with stability 2 for GA, 1 for beta, 0 for alpha.
func apiVersionRank(v string) ([3]int, bool) {
	rest, ok := strings.CutPrefix(v, "v")
	if !ok {
		return [3]int{}, false
	}
	i := 0
	for i < len(rest) && rest[i] >= '0' && rest[i] <= '9' {
		i++
	}
	major, err := strconv.Atoi(rest[:i])
	if err != nil {
		return [3]int{}, false
	}
	if i == len(rest) {
		return [3]int{2, major, 0}, true
	}
	stability := 0
	switch {
	case strings.HasPrefix(rest[i:], "beta"):
		stability, i = 1, i+len("beta")
	case strings.HasPrefix(rest[i:], "alpha"):
		stability, i = 0, i+len("alpha")
	default:
		return [3]int{}, false
	}
	n, err := strconv.Atoi(rest[i:])
	if err != nil {
		return [3]int{}, false
	}
	return [3]int{stability, major, n}, true
}
