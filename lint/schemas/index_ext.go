package schemas

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
