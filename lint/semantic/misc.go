package semantic

import (
	"encoding/base64"
	"regexp"

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
	modes := s.list(s.at(spec, "accessModes"))
	if len(modes) == 0 {
		s.required(s.at(spec, "accessModes"), "at least 1 access mode is required (ReadWriteOnce, ...)")
	}
	for i, m := range modes {
		ms, _ := m.(string)
		switch ms {
		case "ReadWriteOnce", "ReadOnlyMany", "ReadWriteMany":
		case "ReadWriteOncePod":
			if len(modes) > 1 {
				s.bad(s.at(spec, "accessModes"), "Forbidden: may not use ReadWriteOncePod with other access modes")
			}
		default:
			s.bad(s.at(spec, "accessModes", idx(i)), "Unsupported value: %q: supported values: \"ReadOnlyMany\", \"ReadWriteMany\", \"ReadWriteOnce\", \"ReadWriteOncePod\"", ms)
		}
	}
	sp := s.at(spec, "resources", "requests", "storage")
	if !s.has(sp) {
		s.required(sp, "the claim's size, such as 10Gi")
	} else if q, ok := s.quantity(sp); ok && q.Sign() <= 0 {
		s.bad(sp, "Invalid value: %q: must be greater than zero", q.String())
	}
	for _, k := range sortedKeys(s.m(s.at(spec, "resources", "limits"))) {
		s.quantity(s.at(spec, "resources", "limits", k)) // only parsed: the server accepts a negative limit
	}
	for _, k := range sortedKeys(s.m(s.at(spec, "resources", "requests"))) {
		if k != "storage" {
			s.quantity(s.at(spec, "resources", "requests", k))
		}
	}
	s.enum(s.at(spec, "volumeMode"), "Block", "Filesystem")
	if c, ok := s.str(s.at(spec, "storageClassName")); ok && c != "" {
		s.msgs(s.at(spec, "storageClassName"), c, DNS1123Subdomain(c))
	}
	s.labelSelector(s.at(spec, "selector"))
}

// checkPDB checks minAvailable/maxUnavailable, the eviction policy and the
// selector.
func checkPDB(s *sem) {
	spec := p("spec")
	if s.has(s.at(spec, "minAvailable")) && s.has(s.at(spec, "maxUnavailable")) {
		s.bad(s.at(spec, "maxUnavailable"), "Invalid value: minAvailable and maxUnavailable cannot be both set; keep one")
	}
	s.intOrPercent(s.at(spec, "minAvailable"), true)
	s.intOrPercent(s.at(spec, "maxUnavailable"), true)
	s.enum(s.at(spec, "unhealthyPodEvictionPolicy"), "IfHealthyBudget", "AlwaysAllow")
	s.labelSelector(s.at(spec, "selector"))
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
