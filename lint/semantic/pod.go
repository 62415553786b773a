package semantic

import ()

// restart says which pod restartPolicy a controller allows.
type restart int

const (
	restartAny    restart = iota // a Pod: Always, OnFailure, Never
	restartAlways                // Deployments, StatefulSets, DaemonSets, ReplicaSets
	restartJob                   // Jobs: OnFailure, Never
)

// podTemplate checks a pod template: its labels and annotations, its spec.
func (s *sem) podTemplate(path []string, r restart) {
	s.labelMap(at(path, "metadata", "labels"))
	s.annotations(at(path, "metadata", "annotations"))
	s.podSpec(at(path, "spec"), r)
}

// podSpec checks a pod's spec as ValidatePodSpec does.
func (s *sem) podSpec(path []string, r restart) {
	if !s.has(path) {
		s.required(at(path, "containers"), "a pod needs at least one container")
		if r == restartJob {
			s.required(at(path, "restartPolicy"), "a Job's pods need restartPolicy OnFailure or Never")
		}
		return
	}
	if s.m(path) == nil {
		return
	}
	if r == restartJob && !s.has(at(path, "restartPolicy")) {
		s.required(at(path, "restartPolicy"), "a Job's pods need restartPolicy OnFailure or Never")
	}
	s.restartPolicy(at(path, "restartPolicy"), r)
	s.enum(at(path, "dnsPolicy"), "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")
	s.enum(at(path, "preemptionPolicy"), "Never", "PreemptLowerPriority")
	s.labelMap(at(path, "nodeSelector"))
	volumes := s.volumes(at(path, "volumes"))
	names := map[string]bool{}
	if len(s.list(at(path, "containers"))) == 0 && s.has(at(path, "containers")) {
		s.bad(at(path, "containers"), "Required value: a pod needs at least one container")
	}
	for _, field := range []string{"initContainers", "containers"} {
		s.items(at(path, field), func(c []string, cm map[string]any) {
			s.container(c, cm, volumes, names, field == "initContainers")
		})
	}
	s.tolerations(at(path, "tolerations"))
	s.items(at(path, "topologySpreadConstraints"), func(c []string, _ map[string]any) {
		s.enum(at(c, "whenUnsatisfiable"), "DoNotSchedule", "ScheduleAnyway")
		s.enum(at(c, "nodeAffinityPolicy"), "Honor", "Ignore")
		s.enum(at(c, "nodeTaintsPolicy"), "Honor", "Ignore")
		if n, ok := s.num(at(c, "maxSkew")); ok && n <= 0 {
			s.bad(at(c, "maxSkew"), "Invalid value: %d: must be greater than zero", n)
		}
		if k, ok := s.str(at(c, "topologyKey")); !ok || k == "" {
			s.required(at(c, "topologyKey"), "can not be empty; name a node label such as topology.kubernetes.io/zone")
		} else {
			s.msgs(at(c, "topologyKey"), k, QualifiedName(k))
		}
		s.labelSelector(at(c, "labelSelector"))
	})
}

// restartPolicy checks a pod's restartPolicy against what its controller
// allows.
func (s *sem) restartPolicy(path []string, r restart) {
	switch r {
	case restartAlways:
		s.enum(path, "Always")
	case restartJob:
		s.enum(path, "OnFailure", "Never")
	default:
		s.enum(path, "Always", "OnFailure", "Never")
	}
}

// tolerations checks operator, effect and key of each toleration.
func (s *sem) tolerations(path []string) {
	s.items(path, func(t []string, m map[string]any) {
		key, _ := m["key"].(string)
		op, _ := m["operator"].(string)
		value, _ := m["value"].(string)
		if key != "" {
			s.msgs(at(t, "key"), key, QualifiedName(key))
		}
		switch op {
		case "Exists":
			if value != "" {
				s.bad(at(t, "value"), "Invalid value: %q: value must be empty when `operator` is 'Exists'", value)
			}
		case "Equal", "":
			if key == "" {
				s.bad(at(t, "operator"), "Invalid value: %q: operator must be Exists when `key` is empty, which means \"match all values and all keys\"", op)
			}
			if value != "" {
				s.msgs(at(t, "value"), value, LabelValue(value))
			}
		default:
			s.bad(at(t, "operator"), "Unsupported value: %q: supported values: \"Equal\", \"Exists\"", op)
		}
		s.enum(at(t, "effect"), "NoSchedule", "PreferNoSchedule", "NoExecute")
	})
}
