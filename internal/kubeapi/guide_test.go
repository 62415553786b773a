package kubeapi

import (
	"bytes"
	"compress/gzip"
	"encoding/json"
	"strings"
	"testing"
)

// TestGuideAgreesWithMarkers: where k8s.io/api's markers know a row of the
// guide, both give the same releases; the guide only corrects replacements.
func TestGuideAgreesWithMarkers(t *testing.T) {
	gz, err := artifacts.ReadFile(indexFile)
	if err != nil {
		t.Fatal(err)
	}
	raw, err := parseIndexNoGuide(gz)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range guide {
		l, ok := raw[gvk{g.Group, g.Version, g.Kind}]
		if !ok {
			continue
		}
		if l.Removed != g.Removed || l.Deprecated != g.Deprecated {
			t.Errorf("%s/%s %s: markers deprecated %s removed %s, guide %s %s", g.Group, g.Version, g.Kind, l.Deprecated, l.Removed, g.Deprecated, g.Removed)
		}
	}
}

// TestGuideReplacementsAreServed: every replacement the guide names is
// served by every indexed Kubernetes version and is never a List kind, and
// after the merge no lifecycle row names a List.
func TestGuideReplacementsAreServed(t *testing.T) {
	ix := index(t)
	seen := map[gvk]bool{}
	for _, g := range guide {
		k := gvk{g.Group, g.Version, g.Kind}
		if seen[k] {
			t.Errorf("%v twice in the guide", k)
		}
		seen[k] = true
		if g.Removed == "" || g.Deprecated == "" || g.Replacement == "" {
			t.Errorf("%v: incomplete row %+v", k, g)
		}
		if g.Replacement == PodSecurityAdmission {
			continue
		}
		gv, kind, _ := strings.Cut(g.Replacement, " ")
		group, version, found := strings.Cut(gv, "/")
		if !found {
			group, version = "", gv
		}
		for _, v := range Versions() {
			if _, ok := ix.Served(v, group, version, kind); !ok {
				t.Errorf("%v: replacement %q not served by %s", k, g.Replacement, v)
			}
			if _, ok := ix.Served(v, g.Group, g.Version, g.Kind); ok {
				t.Errorf("%v: removed in %s but served by %s", k, g.Removed, v)
			}
		}
		if l, _ := ix.Lifecycle(g.Group, g.Version, g.Kind); l.Replacement != g.Replacement || l.Removed != g.Removed {
			t.Errorf("%v: merged row %+v", k, l)
		}
	}
	for k, l := range ix.lifecycle {
		if strings.HasSuffix(l.Replacement, "List") {
			t.Errorf("%v: replacement is a List kind: %q", k, l.Replacement)
		}
	}
}

// parseIndexNoGuide reads the generated lifecycle table alone.
func parseIndexNoGuide(gz []byte) (map[gvk]Lifecycle, error) {
	zr, err := gzip.NewReader(bytes.NewReader(gz))
	if err != nil {
		return nil, err
	}
	var data indexData
	if err := json.NewDecoder(zr).Decode(&data); err != nil {
		return nil, err
	}
	out := map[gvk]Lifecycle{}
	for _, l := range data.Lifecycle {
		out[gvk{l.Group, l.Version, l.Kind}] = l
	}
	return out, nil
}
