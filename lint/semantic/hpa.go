package semantic

import (
	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// checkHPA checks an autoscaling/v2 HorizontalPodAutoscaler: its target,
// replica bounds, metrics and behavior.
func checkHPA(s *sem) {
	spec := p("spec")
	ref := s.at(spec, "scaleTargetRef")
	for _, f := range []string{"kind", "name"} {
		if v, ok := s.str(s.at(ref, f)); ok {
			if v == "" {
				s.required(s.at(ref, f), "the workload to scale")
			} else {
				s.msgs(s.at(ref, f), v, path.IsValidPathSegmentName(v))
			}
		}
	}
	if v, ok := s.str(s.at(ref, "apiVersion")); ok || !s.has(s.at(ref, "apiVersion")) {
		kind, _ := s.str(s.at(ref, "kind"))
		gv, err := schema.ParseGroupVersion(v)
		switch {
		case err != nil:
			s.bad(s.at(ref, "apiVersion"), "Invalid value: %q: %v", v, err)
		case gv.Group == "" && kind != "ReplicationController" && s.has(ref):
			s.required(s.at(ref, "apiVersion"), "apiVersion must specify API group, such as apps/v1")
		}
	}
	min, hasMin := s.num(s.at(spec, "minReplicas"))
	if max, ok := s.num(s.at(spec, "maxReplicas")); ok {
		if max < 1 {
			s.bad(s.at(spec, "maxReplicas"), "Invalid value: %d: must be greater than or equal to 1", max)
		} else if hasMin && max < min {
			s.bad(s.at(spec, "maxReplicas"), "Invalid value: %d: must be greater than or equal to `minReplicas`", max)
		}
	}
	s.items(s.at(spec, "metrics"), s.metric)
	for _, dir := range []string{"scaleUp", "scaleDown"} {
		rules := s.at(spec, "behavior", dir)
		if s.m(rules) == nil {
			continue
		}
		s.enum(s.at(rules, "selectPolicy"), "Max", "Min", "Disabled")
		if n, ok := s.num(s.at(rules, "stabilizationWindowSeconds")); ok && (n < 0 || n > 3600) {
			s.bad(s.at(rules, "stabilizationWindowSeconds"), "Invalid value: %d: must be between 0 and 3600 (one hour)", n)
		}
		if s.has(s.at(rules, "policies")) && len(s.list(s.at(rules, "policies"))) == 0 {
			s.required(s.at(rules, "policies"), "must specify at least one Policy")
		}
		s.items(s.at(rules, "policies"), func(pp []string, m map[string]any) {
			s.enum(s.at(pp, "type"), "Pods", "Percent")
			if n, ok := asInt(m["value"]); ok && n <= 0 {
				s.bad(s.at(pp, "value"), "Invalid value: %d: must be greater than zero", n)
			}
			if n, ok := asInt(m["periodSeconds"]); ok && (n <= 0 || n > 1800) {
				s.bad(s.at(pp, "periodSeconds"), "Invalid value: %d: must be greater than zero and at most 1800 (30 minutes)", n)
			}
		})
	}
}

// metricSources maps an HPA metric's type to the field that describes it.
var metricSources = map[string]string{"Object": "object", "Pods": "pods", "Resource": "resource",
	"ContainerResource": "containerResource", "External": "external"}

// metric checks one HPA metric: its type, that source alone, a resource
// metric's name and target.
func (s *sem) metric(mp []string, m map[string]any) {
	typ, _ := m["type"].(string)
	src, known := metricSources[typ]
	switch {
	case typ == "":
		s.required(s.at(mp, "type"), "must specify a metric source type")
		return
	case !known:
		s.bad(s.at(mp, "type"), "Unsupported value: %q: supported values: \"ContainerResource\", \"External\", \"Object\", \"Pods\", \"Resource\"", typ)
		return
	}
	if m[src] == nil {
		s.required(s.at(mp, src), "must populate information for the given metric source")
		return
	}
	for _, other := range metricSources {
		if other != src && m[other] != nil {
			s.bad(s.at(mp, other), "Forbidden: must populate the given metric source only")
		}
	}
	if src != "resource" && src != "containerResource" {
		s.metricTarget(s.at(mp, src, "target"))
		return
	}
	r := s.at(mp, src)
	if name, _ := s.str(s.at(r, "name")); name == "" {
		s.required(s.at(r, "name"), "must specify a resource name")
	}
	if src == "containerResource" {
		if c, _ := s.str(s.at(r, "container")); c == "" {
			s.required(s.at(r, "container"), "must specify a container")
		}
	}
	t := s.at(r, "target")
	hasUtil, hasAvg := s.has(s.at(t, "averageUtilization")), s.has(s.at(t, "averageValue"))
	switch {
	case !hasUtil && !hasAvg:
		s.required(s.at(t, "averageUtilization"), "must set either a target raw value or a target utilization")
	case hasUtil && hasAvg:
		s.bad(s.at(t, "averageValue"), "Forbidden: may not set both a target raw value and a target utilization")
	}
	s.metricTarget(t)
}

// metricTarget checks a target's type and that its values are positive.
func (s *sem) metricTarget(t []string) {
	if s.m(t) == nil {
		return
	}
	typ, _ := s.str(s.at(t, "type"))
	switch typ {
	case "Utilization", "Value", "AverageValue":
	case "":
		s.required(s.at(t, "type"), "must specify a metric target type")
	default:
		s.bad(s.at(t, "type"), "Invalid value: %q: must be either Utilization, Value, or AverageValue", typ)
	}
	for _, f := range []string{"value", "averageValue"} {
		if q, ok := s.quantity(s.at(t, f)); ok && q.Sign() <= 0 {
			s.bad(s.at(t, f), "Invalid value: %q: must be positive", q.String())
		}
	}
	if n, ok := s.num(s.at(t, "averageUtilization")); ok && n < 1 {
		s.bad(s.at(t, "averageUtilization"), "Invalid value: %d: must be greater than 0", n)
	}
}
