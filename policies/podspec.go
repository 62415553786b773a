package policies

import (
	"slices"
	"strconv"

	"github.com/kubeplan/kubeplan/manifest"
)

var (
	templateSpec = []string{"spec", "template", "spec"}
	// podSpecPaths maps "group/Kind" to where the object keeps its pod spec.
	podSpecPaths = map[string][]string{
		"/Pod":                   {"spec"},
		"/PodTemplate":           {"template", "spec"},
		"/ReplicationController": templateSpec,
		"apps/Deployment":        templateSpec,
		"apps/StatefulSet":       templateSpec,
		"apps/DaemonSet":         templateSpec,
		"apps/ReplicaSet":        templateSpec,
		"extensions/Deployment":  templateSpec,
		"extensions/DaemonSet":   templateSpec,
		"extensions/ReplicaSet":  templateSpec,
		"batch/Job":              templateSpec,
		"batch/CronJob":          {"spec", "jobTemplate", "spec", "template", "spec"},
	}
	containerFields = []string{"containers", "initContainers", "ephemeralContainers"}
)

// containerField calls fn with the path and value of field (e.g. "image") in
// every container, init container and ephemeral container of o's pod spec.
// Containers of other shapes are skipped.
func containerField(o *manifest.Object, field string, fn func(path []string, v any)) {
	spec, ok := podSpecPaths[o.Group()+"/"+o.Kind]
	if !ok {
		return
	}
	for _, cf := range containerFields {
		v, _ := o.Get(append(slices.Clip(spec), cf)...)
		list, _ := v.([]any)
		for i, c := range list {
			m, _ := c.(map[string]any)
			if fv, ok := m[field]; ok {
				fn(slices.Concat(spec, []string{cf, strconv.Itoa(i), field}), fv)
			}
		}
	}
}
