package main

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"
)

// apiResource is one served top-level resource. The JSON form is read by
// package internal/kubeapi (its APIResource type).
type apiResource struct {
	Group      string `json:"group"`
	Version    string `json:"version"`
	Kind       string `json:"kind"`
	Resource   string `json:"resource"`
	Namespaced bool   `json:"namespaced"`
}

// servedAPIs reads api/discovery of a k8s.io/kubernetes module: every
// APIResourceList document (api__v1.json, apis__<group>__<version>.json)
// without subresources, and the preferred version of each group (apis.json;
// the core group's only version is v1).
func servedAPIs(kubeDir string) ([]apiResource, map[string]string, error) {
	dir := filepath.Join(kubeDir, "api", "discovery")
	files, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return nil, nil, err
	}
	var served []apiResource
	for _, f := range files {
		base := filepath.Base(f)
		if base != "api__v1.json" && !strings.HasPrefix(base, "apis__") {
			continue
		}
		var list struct {
			Kind         string `json:"kind"`
			GroupVersion string `json:"groupVersion"`
			Resources    []struct {
				Name       string `json:"name"`
				Kind       string `json:"kind"`
				Namespaced bool   `json:"namespaced"`
			} `json:"resources"`
		}
		if err := readJSON(f, &list); err != nil {
			return nil, nil, err
		}
		if list.Kind != "APIResourceList" { // apis__<group>.json is an APIGroup
			continue
		}
		group, version, ok := strings.Cut(list.GroupVersion, "/")
		if !ok {
			group, version = "", list.GroupVersion
		}
		for _, r := range list.Resources {
			if strings.Contains(r.Name, "/") {
				continue
			}
			served = append(served, apiResource{group, version, r.Kind, r.Name, r.Namespaced})
		}
	}
	if len(served) == 0 {
		return nil, nil, fmt.Errorf("no APIResourceList documents under %s", dir)
	}
	sort.Slice(served, func(i, j int) bool {
		a, b := served[i], served[j]
		if a.Group != b.Group {
			return a.Group < b.Group
		}
		if a.Version != b.Version {
			return a.Version < b.Version
		}
		if a.Kind != b.Kind {
			return a.Kind < b.Kind
		}
		return a.Resource < b.Resource
	})
	// One resource per GroupVersionKind: the first by resource name.
	var uniq []apiResource
	for _, r := range served {
		if n := len(uniq); n > 0 {
			p := uniq[n-1]
			if p.Group == r.Group && p.Version == r.Version && p.Kind == r.Kind {
				continue
			}
		}
		uniq = append(uniq, r)
	}

	var groups struct {
		Kind   string `json:"kind"`
		Groups []struct {
			Name             string `json:"name"`
			PreferredVersion struct {
				Version string `json:"version"`
			} `json:"preferredVersion"`
		} `json:"groups"`
	}
	if err := readJSON(filepath.Join(dir, "apis.json"), &groups); err != nil {
		return nil, nil, err
	}
	if groups.Kind != "APIGroupList" {
		return nil, nil, fmt.Errorf("%s/apis.json is a %q, want APIGroupList", dir, groups.Kind)
	}
	preferred := map[string]string{"": "v1"}
	for _, g := range groups.Groups {
		preferred[g.Name] = g.PreferredVersion.Version
	}
	return uniq, preferred, nil
}
