package policies

import "testing"

func TestApplysetLabel(t *testing.T) {
	at := []string{"metadata", "labels", "applyset.kubernetes.io/part-of"}
	runRule(t, "applyset-label", []ruleCase{
		{name: "set", yaml: "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels:\n    app: web\n    applyset.kubernetes.io/part-of: applyset-abc-v1\n",
			want: []want{{at, "remove it from the manifest"}}},
		{name: "empty value", yaml: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, labels: {applyset.kubernetes.io/part-of: ''}}\n",
			want: []want{{at, "set by the tool managing the ApplySet"}}},
		{name: "other labels", yaml: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, labels: {app: web, applyset.kubernetes.io/id: x}}\n"},
		{name: "as annotation", yaml: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c, annotations: {applyset.kubernetes.io/part-of: x}}\n"},
		{name: "no labels", yaml: "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n"},
	})
}
