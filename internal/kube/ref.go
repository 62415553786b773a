package kube

import "strings"

// Ref identifies an object in the cluster. The plan records it for each
// change (plan.Ref is this type) and health waits on it, so it lives here,
// below both.
type Ref struct {
	Group     string `json:"group,omitempty"`
	Version   string `json:"version"`
	Kind      string `json:"kind"`
	Resource  string `json:"resource,omitempty"` // plural REST resource, e.g. "deployments"
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
}

// String names the object the way kubectl prints it: "deployment.apps/web".
func (r Ref) String() string {
	k := strings.ToLower(r.Kind)
	if r.Group != "" {
		k += "." + r.Group
	}
	return k + "/" + r.Name
}
