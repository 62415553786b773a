package policies

import "testing"

func TestNamespaceMismatch(t *testing.T) {
	cm := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, namespace: prod}\n"
	at := []string{"metadata", "namespace"}
	runRule(t, "namespace-mismatch", []ruleCase{
		{name: "differs", yaml: cm, opts: Options{Namespace: "staging"},
			want: []want{{at, `metadata.namespace is "prod" but --namespace is "staging"`}}},
		{name: "a project's namespace", yaml: cm, opts: Options{Namespace: "staging", NamespaceFrom: "the namespace of project web"},
			want: []want{{at, `metadata.namespace is "prod" but the namespace of project web is "staging"; remove metadata.namespace to use the namespace of project web`}}},
		{name: "says what to do", yaml: cm, opts: Options{Namespace: "staging"}, want: []want{{at, "remove metadata.namespace"}}},
		{name: "same", yaml: cm, opts: Options{Namespace: "prod"}},
		{name: "no flag", yaml: cm},
		{name: "no namespace in object", yaml: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n", opts: Options{Namespace: "prod"}},
		{name: "cluster-scoped", yaml: "apiVersion: v1\nkind: Namespace\nmetadata: {name: prod}\n", opts: Options{Namespace: "staging"}},
	})
}
