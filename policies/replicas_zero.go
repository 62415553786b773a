package policies

import "github.com/kubeplan/kubeplan/manifest"

var replicasZero = Rule{
	ID:          "replicas-zero",
	Severity:    SeverityError,
	Description: "workloads must not set spec.replicas to 0 (they would run no pods)",
	Check:       eachObject(checkReplicasZero),
}

// scaledKinds are the "group/Kind"s whose spec.replicas counts pods.
var scaledKinds = map[string]bool{
	"apps/Deployment":        true,
	"apps/StatefulSet":       true,
	"apps/ReplicaSet":        true,
	"extensions/Deployment":  true,
	"extensions/ReplicaSet":  true,
	"/ReplicationController": true,
}

func checkReplicasZero(o *manifest.Object, _ Options) []Violation {
	if !scaledKinds[o.Group()+"/"+o.Kind] {
		return nil
	}
	v, ok := o.Get("spec", "replicas")
	if !ok {
		return nil
	}
	switch n := v.(type) {
	case int64:
		if n != 0 {
			return nil
		}
	case float64:
		if n != 0 {
			return nil
		}
	default:
		return nil
	}
	return []Violation{{
		Object:  o,
		Path:    []string{"spec", "replicas"},
		Message: "spec.replicas is 0: the workload will run no pods; remove the object or set replicas >= 1 (if scaled by an autoscaler, omit replicas)",
	}}
}
