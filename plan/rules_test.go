package plan

import "testing"

func TestResourceRuleAllows(t *testing.T) {
	edit := resourceRule{Verbs: []string{"get", "list", "create", "patch"}, APIGroups: []string{"", "apps"}, Resources: []string{"configmaps", "deployments"}}
	all := resourceRule{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}
	named := resourceRule{Verbs: []string{"get", "update"}, APIGroups: []string{"coordination.k8s.io"}, Resources: []string{"leases"}, ResourceNames: []string{"kubeplan-lock-x"}}
	cases := []struct {
		r    resourceRule
		pm   Permission
		want bool
	}{
		{edit, Permission{Verb: "patch", Group: "apps", Resource: "deployments"}, true},
		{edit, Permission{Verb: "delete", Group: "apps", Resource: "deployments"}, false},
		{edit, Permission{Verb: "get", Group: "batch", Resource: "jobs"}, false},
		{edit, Permission{Verb: "get", Group: "apps", Resource: "configmaps"}, true},
		{all, Permission{Verb: "delete", Group: "rbac.authorization.k8s.io", Resource: "roles"}, true},
		{named, Permission{Verb: "get", Group: "coordination.k8s.io", Resource: "leases", Name: "kubeplan-lock-x"}, true},
		{named, Permission{Verb: "get", Group: "coordination.k8s.io", Resource: "leases", Name: "other"}, false},
		// a rule limited to names never grants what names no object (list, create)
		{named, Permission{Verb: "get", Group: "coordination.k8s.io", Resource: "leases"}, false},
	}
	for _, c := range cases {
		if got := c.r.allows(c.pm); got != c.want {
			t.Errorf("%+v allows %+v = %v, want %v", c.r, c.pm, got, c.want)
		}
	}
}
