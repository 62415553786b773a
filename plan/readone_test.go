package plan

import (
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/applyset"
)

// TestReadAheadOneScope: one project's read-ahead answers only for what it
// read (the plan reads the rest itself); the read-ahead of a whole cluster
// answers for everything.
func TestReadAheadOneScope(t *testing.T) {
	deploy := schema.GroupKind{Group: "apps", Kind: "Deployment"}
	role := schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "ClusterRole"}
	set := applyset.Parent{Kind: "ConfigMap", Name: "set", Namespace: "a"}
	other := applyset.Parent{Kind: "ConfigMap", Name: "other", Namespace: "a"}
	one := &ReadAhead{scoped: true,
		parents:     map[string]*unstructured.Unstructured{"a/set": {}},
		members:     map[schema.GroupKind][]*unstructured.Unstructured{deploy: nil, role: nil},
		kinds:       map[schema.GroupKind]bool{deploy: true, role: true},
		listedIn:    map[schema.GroupKind][]string{deploy: {"a", "b"}, role: {""}},
		autoscalers: map[string][]unstructured.Unstructured{"a": nil},
	}
	all := &ReadAhead{parents: one.parents, members: one.members, kinds: one.kinds, autoscalers: one.autoscalers}
	for _, tc := range []struct {
		what     string
		one, all bool
	}{
		{what: "its parent", one: true, all: true},
		{what: "another parent", one: false, all: true},
		{what: "members in the namespaces listed", one: true, all: true},
		{what: "members in one more namespace", one: false, all: true},
		{what: "members in every namespace", one: false, all: true},
		{what: "cluster-scoped members", one: true, all: true},
		{what: "the autoscalers in its namespace", one: true, all: true},
		{what: "the autoscalers in another namespace", one: false, all: true},
	} {
		for _, ra := range []*ReadAhead{one, all} {
			var ok bool
			switch tc.what {
			case "its parent":
				_, ok = ra.parent(set)
			case "another parent":
				_, ok = ra.parent(other)
			case "members in the namespaces listed":
				_, ok = ra.membersOf(set, deploy, []string{"a", "b"})
			case "members in one more namespace":
				_, ok = ra.membersOf(set, deploy, []string{"a", "c"})
			case "members in every namespace":
				_, ok = ra.membersOf(set, deploy, nil)
			case "cluster-scoped members":
				_, ok = ra.membersOf(set, role, nil)
			case "the autoscalers in its namespace":
				_, ok = ra.autoscalersIn("a")
			case "the autoscalers in another namespace":
				_, ok = ra.autoscalersIn("b")
			}
			want := tc.all
			if ra == one {
				want = tc.one
			}
			if ok != want {
				t.Errorf("%s (scoped %v): read = %v, want %v", tc.what, ra.scoped, ok, want)
			}
		}
	}
}
