package rollhash

import "github.com/kubeplan/kubeplan/internal/podrefs"

// TemplateMeta is where kind keeps its pod template's metadata
// (["spec","template","metadata"]), nil for kinds without a pod template
// and for a Pod, whose annotations restart nothing.
func TemplateMeta(group, kind string) []string {
	spec := podrefs.PodSpecPath(group, kind)
	if len(spec) < 2 {
		return nil
	}
	out := append([]string(nil), spec[:len(spec)-1]...)
	return append(out, "metadata")
}

// Get is the Annotation of the pod template whose metadata is at meta in
// obj, "" when it has none.
func Get(obj map[string]any, meta []string) string {
	cur := obj
	for _, p := range meta {
		next, _ := cur[p].(map[string]any)
		if next == nil {
			return ""
		}
		cur = next
	}
	ann, _ := cur["annotations"].(map[string]any)
	v, _ := ann[Annotation].(string)
	return v
}

// Set writes value as the Annotation of the pod template whose metadata
// is at meta in obj, making the maps on the way.
func Set(obj map[string]any, meta []string, value string) {
	cur := obj
	for _, p := range append(append([]string(nil), meta...), "annotations") {
		next, _ := cur[p].(map[string]any)
		if next == nil {
			next = map[string]any{}
			cur[p] = next
		}
		cur = next
	}
	cur[Annotation] = value
}
