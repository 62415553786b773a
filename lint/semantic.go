package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kubeplan/kubeplan/manifest"
)

// ruleInvalidValue is the rule of the semantic checks: values the API
// server refuses although they fit the schema's types.
const ruleInvalidValue = "invalid-value"

// sem collects the semantic findings of one built-in object. Its checks
// read the object's decoded Content; each finding is at the field's
// line:col, with the API server's reason and what to do.
type sem struct {
	o   *manifest.Object
	out []Finding
	// claims are a StatefulSet's volumeClaimTemplates: volumes its pods
	// mount without declaring them.
	claims map[string]bool
}

// semanticFindings checks a built-in object the way the API server
// validates it before storing it (k8s.io/kubernetes pkg/apis/*/validation):
// the values, relations and formats the JSON schema cannot express. It
// also drops the schema's findings about a required field the server
// does not require (see relaxedRequired).
func semanticFindings(o *manifest.Object, schemaFindings []Finding) []Finding {
	s := &sem{o: o}
	if check, ok := semanticChecks[o.Group()+"/"+o.Kind]; ok {
		check(s)
	}
	out := schemaFindings[:0:0]
	for _, f := range schemaFindings {
		if !relaxedRequired(o, f) {
			out = append(out, f)
		}
	}
	return append(out, s.out...)
}

// semanticChecks are the checks per group/kind.
var semanticChecks = map[string]func(*sem){
	"apps/Deployment":                       checkDeployment,
	"apps/StatefulSet":                      checkStatefulSet,
	"apps/DaemonSet":                        checkDaemonSet,
	"apps/ReplicaSet":                       checkReplicaSet,
	"batch/Job":                             func(s *sem) { s.job(nil) },
	"batch/CronJob":                         checkCronJob,
	"/Pod":                                  func(s *sem) { s.podSpec(p("spec"), restartAny) },
	"/PodTemplate":                          func(s *sem) { s.podTemplate(p("template"), restartAny) },
	"/ReplicationController":                checkReplicationController,
	"/Service":                              checkService,
	"/ConfigMap":                            checkConfigMap,
	"/Secret":                               checkSecret,
	"/PersistentVolumeClaim":                func(s *sem) { s.pvcSpec(p("spec")) },
	"networking.k8s.io/Ingress":             checkIngress,
	"networking.k8s.io/NetworkPolicy":       checkNetworkPolicy,
	"rbac.authorization.k8s.io/Role":        func(s *sem) { s.policyRules(p("rules"), false) },
	"rbac.authorization.k8s.io/ClusterRole": func(s *sem) { s.policyRules(p("rules"), true) },
	"rbac.authorization.k8s.io/RoleBinding": func(s *sem) { s.binding(false) },
	"rbac.authorization.k8s.io/ClusterRoleBinding": func(s *sem) { s.binding(true) },
	"autoscaling/HorizontalPodAutoscaler":          checkHPA,
	"policy/PodDisruptionBudget":                   checkPDB,
	"/Namespace":                                   checkNamespace,
}

// p makes a path.
func p(parts ...string) []string { return parts }

// at returns path + more, without sharing path's backing array.
func at(path []string, more ...string) []string {
	return append(append(make([]string, 0, len(path)+len(more)), path...), more...)
}

// idx is the path element of list index i.
func idx(i int) string { return strconv.Itoa(i) }

// bad reports the value at path.
func (s *sem) bad(path []string, format string, args ...any) {
	s.out = append(s.out, objectFinding(s.o, path, Error, ruleInvalidValue, fieldPath(path)+": "+fmt.Sprintf(format, args...)))
}

// badKey reports the key at path (a label key, a data key).
func (s *sem) badKey(path []string, format string, args ...any) {
	f := objectFinding(s.o, path, Error, ruleInvalidValue, fieldPath(path)+": "+fmt.Sprintf(format, args...))
	pos := s.o.KeyPos(path...)
	f.Line, f.Col, f.EndLine, f.EndCol = pos.Line, pos.Col, 0, 0
	s.out = append(s.out, f)
}

// required reports a field the server requires when it is missing (or
// where it should be when its parent is missing too).
func (s *sem) required(path []string, what string) {
	where := path
	for len(where) > 0 && !s.o.Has(where...) {
		where = where[:len(where)-1]
	}
	s.out = append(s.out, objectFinding(s.o, where, Error, ruleInvalidValue, fieldPath(path)+": Required value: "+what))
}

// get returns the value at path.
func (s *sem) get(path []string) any {
	v, _ := s.o.Get(path...)
	return v
}

func (s *sem) m(path []string) map[string]any {
	m, _ := s.get(path).(map[string]any)
	return m
}

func (s *sem) list(path []string) []any {
	l, _ := s.get(path).([]any)
	return l
}

// str returns the string at path; ok is false when it is missing or not a
// string (the schema reports wrong types).
func (s *sem) str(path []string) (string, bool) {
	v, ok := s.get(path).(string)
	return v, ok
}

// num returns the integer at path.
func (s *sem) num(path []string) (int64, bool) {
	return asInt(s.get(path))
}

func asInt(v any) (int64, bool) {
	switch v := v.(type) {
	case int64:
		return v, true
	case float64:
		if v == float64(int64(v)) {
			return int64(v), true
		}
	}
	return 0, false
}

// has reports whether path is set to something other than null.
func (s *sem) has(path []string) bool {
	v, ok := s.o.Get(path...)
	return ok && v != nil
}

// enumIn is enum for the field key of the mapping m at base: it reads m
// directly and makes the path only for a finding (lint runs these checks
// on every object).
func (s *sem) enumIn(m map[string]any, base []string, key string, allowed ...string) {
	v, ok := m[key].(string)
	if !ok || v == "" {
		return
	}
	for _, a := range allowed {
		if v == a {
			return
		}
	}
	s.enum(at(base, key), allowed...)
}

// enum reports a string at path outside allowed; "" and missing are left
// to the server's defaults (and required checks).
func (s *sem) enum(path []string, allowed ...string) {
	v, ok := s.str(path)
	if !ok || v == "" {
		return
	}
	for _, a := range allowed {
		if v == a {
			return
		}
	}
	s.bad(path, "Unsupported value: %q: supported values: %s", v, quoteAll(allowed))
}

func quoteAll(vs []string) string {
	q := make([]string, len(vs))
	for i, v := range vs {
		q[i] = strconv.Quote(v)
	}
	return strings.Join(q, ", ")
}

// msgs reports each validator message about the value at path.
func (s *sem) msgs(path []string, value string, ms []string) {
	for _, m := range ms {
		s.bad(path, "Invalid value: %q: %s", value, m)
	}
}

// items calls f with the path of each item of the list at path that is a
// mapping.
func (s *sem) items(path []string, f func(item []string, m map[string]any)) {
	for i, v := range s.list(path) {
		if m, ok := v.(map[string]any); ok {
			f(at(path, idx(i)), m)
		}
	}
}

// relaxedRequired reports a schema finding about a field the OpenAPI
// schema lists as required but the API server accepts missing: an HTTP
// header's value, and the claimName of a StatefulSet's volume named as one
// of its volumeClaimTemplates (the claim replaces that volume).
func relaxedRequired(o *manifest.Object, f Finding) bool {
	if f.Rule != "schema" || !strings.Contains(f.Message, "missing required field") {
		return false
	}
	if strings.Contains(f.Message, `"value"`) && strings.Contains(f.Field, ".httpHeaders[") {
		return true
	}
	const vols = "spec.template.spec.volumes["
	if o.Group() != "apps" || o.Kind != "StatefulSet" || !strings.Contains(f.Message, `"claimName"`) || !strings.HasPrefix(f.Field, vols) {
		return false
	}
	i, _, _ := strings.Cut(strings.TrimPrefix(f.Field, vols), "]")
	name, _ := o.Get("spec", "template", "spec", "volumes", i, "name")
	claims, _ := o.Get("spec", "volumeClaimTemplates")
	for _, c := range listOf(claims) {
		m, _ := c.(map[string]any)
		meta, _ := m["metadata"].(map[string]any)
		if n, ok := meta["name"].(string); ok && n != "" && n == name {
			return true
		}
	}
	return false
}
