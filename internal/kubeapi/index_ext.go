package kubeapi

import "sort"

// KnownGroup reports whether group is a Kubernetes API group: served by
// any indexed version or named in the lifecycle table.
func (ix *APIIndex) KnownGroup(group string) bool {
	for g := range ix.servedIn {
		if g.group == group {
			return true
		}
	}
	for g := range ix.lifecycle {
		if g.group == group {
			return true
		}
	}
	return false
}

// Kinds lists the kinds kubeVersion serves, sorted.
func (ix *APIIndex) Kinds(kubeVersion string) []string {
	var out []string
	for k := range ix.byKind[minorOf(kubeVersion)] {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// APIVersions lists what kubeVersion serves the way Helm's
// .Capabilities.APIVersions holds it: every "group/version" (core as "v1")
// and every "group/version/Kind", sorted. Nil when kubeVersion is not
// indexed.
func (ix *APIIndex) APIVersions(kubeVersion string) []string {
	served, ok := ix.served[minorOf(kubeVersion)]
	if !ok {
		return nil
	}
	seen := map[string]bool{}
	for g := range served {
		gv := g.version
		if g.group != "" {
			gv = g.group + "/" + g.version
		}
		seen[gv] = true
		seen[gv+"/"+g.kind] = true
	}
	out := make([]string, 0, len(seen))
	for s := range seen {
		out = append(out, s)
	}
	sort.Strings(out)
	return out
}

// ServesGroupVersion reports whether kubeVersion serves any kind of
// group/version.
func (ix *APIIndex) ServesGroupVersion(kubeVersion, group, version string) bool {
	for g := range ix.served[minorOf(kubeVersion)] {
		if g.group == group && g.version == version {
			return true
		}
	}
	return false
}
