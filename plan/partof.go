package plan

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/applyset"
)

// keepPartOf, when planning without an ApplySet, copies the live object's
// ApplySet label (applyset.kubernetes.io/part-of) onto the object to apply.
// Otherwise a server-side apply by the manager that set the label removes
// it, and the object silently leaves its set and is never pruned. With an
// ApplySet the label is set by Make, to that set's id.
func (p *planner) keepPartOf(targets []*target, live map[*target]*unstructured.Unstructured) {
	if p.opts.ApplySet != nil {
		return
	}
	for _, t := range targets {
		l := live[t]
		if l == nil {
			continue
		}
		id, ok := l.GetLabels()[applyset.LabelPartOf]
		if !ok {
			continue
		}
		labels := t.obj.GetLabels()
		if labels == nil {
			labels = map[string]string{}
		}
		labels[applyset.LabelPartOf] = id
		t.obj.SetLabels(labels)
	}
}
