package policies

import "testing"

func TestDuplicateObject(t *testing.T) {
	at := []string{"metadata", "name"}
	cm := func(name, ns string) string {
		s := "---\napiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n"
		if ns != "" {
			s += "  namespace: " + ns + "\n"
		}
		return s
	}
	runRule(t, "duplicate-object", []ruleCase{
		{name: "twice", yaml: cm("a", "") + cm("a", ""),
			want: []want{{at, "configmap/a is defined more than once, first defined at in.yaml:5"}}},
		{name: "three times", yaml: cm("a", "x") + cm("a", "x") + cm("a", "x"),
			want: []want{{at, `configmap/a in namespace "x" is defined more than once, first defined at in.yaml:5`}, {at, "in.yaml:5"}}},
		{name: "implicit namespace equals --namespace", yaml: cm("a", "") + cm("a", "x"), opts: Options{Namespace: "x"},
			want: []want{{at, "first defined at in.yaml:5"}}},
		{name: "different namespace", yaml: cm("a", "x") + cm("a", "y")},
		{name: "no namespace vs namespace without flag", yaml: cm("a", "") + cm("a", "x")},
		{name: "different name", yaml: cm("a", "") + cm("b", "")},
		{name: "different kind", yaml: cm("a", "") + "---\napiVersion: v1\nkind: Secret\nmetadata: {name: a}\n"},
		{name: "different group", yaml: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: a}\n---\napiVersion: example.com/v1\nkind: Deployment\nmetadata: {name: a}\n"},
		{name: "generateName", yaml: "apiVersion: batch/v1\nkind: Job\nmetadata: {generateName: m-}\n---\napiVersion: batch/v1\nkind: Job\nmetadata: {generateName: m-}\n"},
	})
}

func TestDuplicateObjectAcrossFiles(t *testing.T) {
	objs := append(parse(t, "a.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"),
		parse(t, "b.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n")...)
	got := duplicateObject.Check(objs, Options{})
	if len(got) != 1 || got[0].Object.File != "b.yaml" || got[0].Message != "configmap/c is defined more than once, first defined at a.yaml:3; remove one copy or rename it" {
		t.Fatalf("got %+v", got)
	}
}
