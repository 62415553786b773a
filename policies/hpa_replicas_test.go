package policies

import "testing"

func TestHPAReplicas(t *testing.T) {
	at := []string{"spec", "replicas"}
	workload := func(kind, name, ns, replicas string) string {
		s := "---\napiVersion: apps/v1\nkind: " + kind + "\nmetadata:\n  name: " + name + "\n"
		if ns != "" {
			s += "  namespace: " + ns + "\n"
		}
		s += "spec:\n  selector: {matchLabels: {app: " + name + "}}\n"
		if replicas != "" {
			s += "  replicas: " + replicas + "\n"
		}
		return s
	}
	autoscaler := func(apiVersion, kind, name, ns string) string {
		s := "---\napiVersion: " + apiVersion + "\nkind: HorizontalPodAutoscaler\nmetadata:\n  name: h\n"
		if ns != "" {
			s += "  namespace: " + ns + "\n"
		}
		return s + "spec:\n  scaleTargetRef: {apiVersion: apps/v1, kind: " + kind + ", name: " + name + "}\n  maxReplicas: 5\n"
	}
	runRule(t, "hpa-replicas", []ruleCase{
		{name: "v2 targets deployment", yaml: workload("Deployment", "web", "", "2") + autoscaler("autoscaling/v2", "Deployment", "web", ""),
			want: []want{{at, "spec.replicas is owned by HorizontalPodAutoscaler h (in.yaml:10); remove the field from git"}}},
		{name: "hpa first, v1, statefulset", yaml: autoscaler("autoscaling/v1", "StatefulSet", "db", "") + workload("StatefulSet", "db", "", "3"),
			want: []want{{at, "HorizontalPodAutoscaler h"}}},
		{name: "replicas zero too", yaml: workload("Deployment", "web", "", "0") + autoscaler("autoscaling/v2", "Deployment", "web", ""),
			want: []want{{at, "remove the field"}}},
		{name: "implicit namespace equals --namespace", yaml: workload("Deployment", "web", "", "2") + autoscaler("autoscaling/v2", "Deployment", "web", "x"),
			opts: Options{Namespace: "x"}, want: []want{{at, "owned by"}}},
		{name: "no replicas", yaml: workload("Deployment", "web", "", "") + autoscaler("autoscaling/v2", "Deployment", "web", "")},
		{name: "no autoscaler", yaml: workload("Deployment", "web", "", "2")},
		{name: "other name", yaml: workload("Deployment", "web", "", "2") + autoscaler("autoscaling/v2", "Deployment", "api", "")},
		{name: "other kind", yaml: workload("Deployment", "web", "", "2") + autoscaler("autoscaling/v2", "StatefulSet", "web", "")},
		{name: "other namespace", yaml: workload("Deployment", "web", "a", "2") + autoscaler("autoscaling/v2", "Deployment", "web", "b")},
		{name: "not an autoscaler", yaml: workload("Deployment", "web", "", "2") + autoscaler("example.com/v1", "Deployment", "web", "")},
	})
}
