package lint

import (
	"encoding/base64"
	"regexp"

	"k8s.io/apimachinery/pkg/api/validation/path"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
)

// checkConfigMap checks data and binaryData keys (each key once across
// both) and that binaryData values are base64.
func checkConfigMap(s *sem) {
	seen := map[string]bool{}
	for _, field := range []string{"data", "binaryData"} {
		for _, k := range sortedKeys(s.m(p(field))) {
			kp := p(field, k)
			for _, msg := range validation.IsConfigMapKey(k) {
				s.badKey(kp, "Invalid value: %q: %s", k, msg)
			}
			if seen[k] {
				s.badKey(kp, "Invalid value: %q: duplicate of key present in data; a key may be in data or binaryData, not both", k)
			}
			seen[k] = true
			if v, ok := s.str(kp); ok && field == "binaryData" {
				if _, err := base64.StdEncoding.DecodeString(v); err != nil {
					s.bad(kp, "is not valid base64; binaryData values are base64-encoded bytes")
				}
			}
		}
	}
}

// checkSecret checks data and stringData keys.
func checkSecret(s *sem) {
	for _, field := range []string{"data", "stringData"} {
		for _, k := range sortedKeys(s.m(p(field))) {
			for _, msg := range validation.IsConfigMapKey(k) {
				s.badKey(p(field, k), "Invalid value: %q: %s", k, msg)
			}
		}
	}
}

// pvcSpec checks a claim's access modes, storage request, volume mode and
// class.
func (s *sem) pvcSpec(spec []string) {
	if s.has(spec) && s.m(spec) == nil {
		return // not a mapping: the schema reports it
	}
	modes := s.list(at(spec, "accessModes"))
	if len(modes) == 0 {
		s.required(at(spec, "accessModes"), "at least 1 access mode is required (ReadWriteOnce, ...)")
	}
	for i, m := range modes {
		ms, _ := m.(string)
		switch ms {
		case "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany":
		case "ReadWriteOncePod":
			if len(modes) > 1 {
				s.bad(at(spec, "accessModes"), "Forbidden: may not use ReadWriteOncePod with other access modes")
			}
		default:
			s.bad(at(spec, "accessModes", idx(i)), "Unsupported value: %q: supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"", ms)
		}
	}
	sp := at(spec, "resources", "requests", "storage")
	if !s.has(sp) {
		s.required(sp, "the claim's size, such as 10Gi")
	} else if q, ok := s.quantity(sp); ok && q.Sign() <= 0 {
		s.bad(sp, "Invalid value: %q: must be greater than zero", q.String())
	}
	for _, k := range sortedKeys(s.m(at(spec, "resources", "limits"))) {
		s.quantity(at(spec, "resources", "limits", k)) // only parsed: the server accepts a negative limit
	}
	for _, k := range sortedKeys(s.m(at(spec, "resources", "requests"))) {
		if k != "storage" {
			s.quantity(at(spec, "resources", "requests", k))
		}
	}
	s.enum(at(spec, "volumeMode"), "Block", "Filesystem")
	if c, ok := s.str(at(spec, "storageClassName")); ok && c != "" {
		s.msgs(at(spec, "storageClassName"), c, validation.IsDNS1123Subdomain(c))
	}
	s.labelSelector(at(spec, "selector"), false)
}

// checkPDB checks minAvailable/maxUnavailable, the eviction policy and the
// selector.
func checkPDB(s *sem) {
	spec := p("spec")
	if s.has(at(spec, "minAvailable")) && s.has(at(spec, "maxUnavailable")) {
		s.bad(at(spec, "maxUnavailable"), "Invalid value: minAvailable and maxUnavailable cannot be both set; keep one")
	}
	s.intOrPercent(at(spec, "minAvailable"), true)
	s.intOrPercent(at(spec, "maxUnavailable"), true)
	s.enum(at(spec, "unhealthyPodEvictionPolicy"), "IfHealthyBudget", "AlwaysAllow")
	s.labelSelector(at(spec, "selector"), false)
}

// checkHPA checks an autoscaling/v2 HorizontalPodAutoscaler: its target,
// replica bounds, metrics and behavior.
func checkHPA(s *sem) {
	spec := p("spec")
	ref := at(spec, "scaleTargetRef")
	for _, f := range []string{"kind", "name"} {
		if v, ok := s.str(at(ref, f)); ok {
			if v == "" {
				s.required(at(ref, f), "the workload to scale")
			} else {
				s.msgs(at(ref, f), v, path.IsValidPathSegmentName(v))
			}
		}
	}
	if v, ok := s.str(at(ref, "apiVersion")); ok || !s.has(at(ref, "apiVersion")) {
		kind, _ := s.str(at(ref, "kind"))
		gv, err := schema.ParseGroupVersion(v)
		switch {
		case err != nil:
			s.bad(at(ref, "apiVersion"), "Invalid value: %q: %v", v, err)
		case gv.Group == "" && kind != "ReplicationController" && s.has(ref):
			s.required(at(ref, "apiVersion"), "apiVersion must specify API group, such as apps/v1")
		}
	}
	min, hasMin := s.num(at(spec, "minReplicas"))
	if max, ok := s.num(at(spec, "maxReplicas")); ok {
		if max < 1 {
			s.bad(at(spec, "maxReplicas"), "Invalid value: %d: must be greater than or equal to 1", max)
		} else if hasMin && max < min {
			s.bad(at(spec, "maxReplicas"), "Invalid value: %d: must be greater than or equal to `minReplicas`", max)
		}
	}
	s.items(at(spec, "metrics"), s.metric)
	for _, dir := range []string{"scaleUp", "scaleDown"} {
		rules := at(spec, "behavior", dir)
		if s.m(rules) == nil {
			continue
		}
		s.enum(at(rules, "selectPolicy"), "Max", "Min", "Disabled")
		if n, ok := s.num(at(rules, "stabilizationWindowSeconds")); ok && (n < 0 || n > 3600) {
			s.bad(at(rules, "stabilizationWindowSeconds"), "Invalid value: %d: must be between 0 and 3600 (one hour)", n)
		}
		if s.has(at(rules, "policies")) && len(s.list(at(rules, "policies"))) == 0 {
			s.required(at(rules, "policies"), "must specify at least one Policy")
		}
		s.items(at(rules, "policies"), func(pp []string, m map[string]any) {
			s.enum(at(pp, "type"), "Pods", "Percent")
			if n, ok := asInt(m["value"]); ok && n <= 0 {
				s.bad(at(pp, "value"), "Invalid value: %d: must be greater than zero", n)
			}
			if n, ok := asInt(m["periodSeconds"]); ok && (n <= 0 || n > 1800) {
				s.bad(at(pp, "periodSeconds"), "Invalid value: %d: must be greater than zero and at most 1800 (30 minutes)", n)
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
		s.required(at(mp, "type"), "must specify a metric source type")
		return
	case !known:
		s.bad(at(mp, "type"), "Unsupported value: %q: supported values: \"ContainerResource\", \"External\", \"Object\", \"Pods\", \"Resource\"", typ)
		return
	}
	if m[src] == nil {
		s.required(at(mp, src), "must populate information for the given metric source")
		return
	}
	for _, other := range metricSources {
		if other != src && m[other] != nil {
			s.bad(at(mp, other), "Forbidden: must populate the given metric source only")
		}
	}
	if src != "resource" && src != "containerResource" {
		s.metricTarget(at(mp, src, "target"))
		return
	}
	r := at(mp, src)
	if name, _ := s.str(at(r, "name")); name == "" {
		s.required(at(r, "name"), "must specify a resource name")
	}
	if src == "containerResource" {
		if c, _ := s.str(at(r, "container")); c == "" {
			s.required(at(r, "container"), "must specify a container")
		}
	}
	t := at(r, "target")
	hasUtil, hasAvg := s.has(at(t, "averageUtilization")), s.has(at(t, "averageValue"))
	switch {
	case !hasUtil && !hasAvg:
		s.required(at(t, "averageUtilization"), "must set either a target raw value or a target utilization")
	case hasUtil && hasAvg:
		s.bad(at(t, "averageValue"), "Forbidden: may not set both a target raw value and a target utilization")
	}
	s.metricTarget(t)
}

// metricTarget checks a target's type and that its values are positive.
func (s *sem) metricTarget(t []string) {
	if s.m(t) == nil {
		return
	}
	typ, _ := s.str(at(t, "type"))
	switch typ {
	case "Utilization", "Value", "AverageValue":
	case "":
		s.required(at(t, "type"), "must specify a metric target type")
	default:
		s.bad(at(t, "type"), "Invalid value: %q: must be either Utilization, Value, or AverageValue", typ)
	}
	for _, f := range []string{"value", "averageValue"} {
		if q, ok := s.quantity(at(t, f)); ok && q.Sign() <= 0 {
			s.bad(at(t, f), "Invalid value: %q: must be positive", q.String())
		}
	}
	if n, ok := s.num(at(t, "averageUtilization")); ok && n < 1 {
		s.bad(at(t, "averageUtilization"), "Invalid value: %d: must be greater than 0", n)
	}
}

// podSecurityLevels are the levels of the Pod Security admission labels.
var podSecurityLevels = map[string]bool{"privileged": true, "baseline": true, "restricted": true}

var podSecurityVersion = regexp.MustCompile(`^(latest|v1\.([0-9]|[1-9][0-9]*))$`)

// checkNamespace checks the Pod Security admission labels, which the API
// server's admission refuses when their values are not a level or version.
func checkNamespace(s *sem) {
	labels := s.m(p("metadata", "labels"))
	for _, mode := range []string{"enforce", "audit", "warn"} {
		key := "pod-security.kubernetes.io/" + mode
		if v, ok := labels[key].(string); ok && !podSecurityLevels[v] {
			s.bad(p("metadata", "labels", key), "Invalid value: %q: must be one of privileged, baseline, restricted", v)
		}
		if v, ok := labels[key+"-version"].(string); ok && !podSecurityVersion.MatchString(v) {
			s.bad(p("metadata", "labels", key+"-version"), "Invalid value: %q: must be \"latest\" or \"v1.x\"", v)
		}
	}
}
