package policies

import "testing"

func TestReplicasZero(t *testing.T) {
	at := []string{"spec", "replicas"}
	runRule(t, "replicas-zero", []ruleCase{
		{name: "deployment zero", yaml: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 0}\n",
			want: []want{{at, "spec.replicas is 0"}}},
		{name: "statefulset float zero", yaml: "apiVersion: apps/v1\nkind: StatefulSet\nmetadata: {name: db}\nspec: {replicas: 0.0}\n",
			want: []want{{at, "will run no pods"}}},
		{name: "replicaset zero", yaml: "apiVersion: apps/v1\nkind: ReplicaSet\nmetadata: {name: rs}\nspec: {replicas: 0}\n",
			want: []want{{at, "autoscaler"}}},
		{name: "replicationcontroller zero", yaml: "apiVersion: v1\nkind: ReplicationController\nmetadata: {name: rc}\nspec: {replicas: 0}\n",
			want: []want{{at, "replicas >= 1"}}},
		{name: "replicas one", yaml: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: 1}\n"},
		{name: "replicas absent", yaml: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {}\n"},
		{name: "replicas string", yaml: "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\nspec: {replicas: \"0\"}\n"},
		{name: "not a workload", yaml: "apiVersion: example.com/v1\nkind: Deployment\nmetadata: {name: x}\nspec: {replicas: 0}\n"},
		{name: "hpa min zero", yaml: "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: h}\nspec: {replicas: 0}\n"},
	})
}
