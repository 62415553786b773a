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
	s.labelMap(s.at(path, "metadata", "labels"))
	s.annotations(s.at(path, "metadata", "annotations"))
	s.podSpec(s.at(path, "spec"), r)
}

// podSpec checks a pod's spec as ValidatePodSpec does.
func (s *sem) podSpec(path []string, r restart) {
	if !s.has(path) {
		s.required(s.at(path, "containers"), "a pod needs at least one container")
		if r == restartJob {
			s.required(s.at(path, "restartPolicy"), "a Job's pods need restartPolicy OnFailure or Never")
		}
		return
	}
	if s.m(path) == nil {
		return
	}
	if r == restartJob && !s.has(s.at(path, "restartPolicy")) {
		s.required(s.at(path, "restartPolicy"), "a Job's pods need restartPolicy OnFailure or Never")
	}
	s.restartPolicy(s.at(path, "restartPolicy"), r)
	s.enum(s.at(path, "dnsPolicy"), "ClusterFirstWithHostNet", "ClusterFirst", "Default", "None")
	s.enum(s.at(path, "preemptionPolicy"), "Never", "PreemptLowerPriority")
	s.labelMap(s.at(path, "nodeSelector"))
	volumes := s.volumes(s.at(path, "volumes"))
	names := map[string]bool{}
	if len(s.list(s.at(path, "containers"))) == 0 && s.has(s.at(path, "containers")) {
		s.bad(s.at(path, "containers"), "Required value: a pod needs at least one container")
	}
	for _, field := range []string{"initContainers", "containers"} {
		s.items(s.at(path, field), func(c []string, cm map[string]any) {
			s.container(c, cm, volumes, names, field == "initContainers")
		})
	}
	s.tolerations(s.at(path, "tolerations"))
	s.items(s.at(path, "topologySpreadConstraints"), func(c []string, _ map[string]any) {
		s.enum(s.at(c, "whenUnsatisfiable"), "DoNotSchedule", "ScheduleAnyway")
		s.enum(s.at(c, "nodeAffinityPolicy"), "Honor", "Ignore")
		s.enum(s.at(c, "nodeTaintsPolicy"), "Honor", "Ignore")
		if n, ok := s.num(s.at(c, "maxSkew")); ok && n <= 0 {
			s.bad(s.at(c, "maxSkew"), "Invalid value: %d: must be greater than zero", n)
		}
		if k, ok := s.str(s.at(c, "topologyKey")); !ok || k == "" {
			s.required(s.at(c, "topologyKey"), "can not be empty; name a node label such as topology.kubernetes.io/zone")
		} else {
			s.msgs(s.at(c, "topologyKey"), k, QualifiedName(k))
		}
		s.labelSelector(s.at(c, "labelSelector"))
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
			s.msgs(s.at(t, "key"), key, QualifiedName(key))
		}
		switch op {
		case "Exists":
			if value != "" {
				s.bad(s.at(t, "value"), "Invalid value: %q: value must be empty when `operator` is 'Exists'", value)
			}
		case "Equal", "":
			if key == "" {
				s.bad(s.at(t, "operator"), "Invalid value: %q: operator must be Exists when `key` is empty, which means \"match all values and all keys\"", op)
			}
			if value != "" {
				s.msgs(s.at(t, "value"), value, LabelValue(value))
			}
		default:
			s.bad(s.at(t, "operator"), "Unsupported value: %q: supported values: \"Equal\", \"Exists\"", op)
		}
		s.enum(s.at(t, "effect"), "NoSchedule", "PreferNoSchedule", "NoExecute")
	})
}
