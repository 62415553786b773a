package semantic

import (
	"fmt"
	"maps"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/manifest"
)

// Rule is the lint rule of every Violation: a value the API server refuses
// although it fits the schema's types.
const Rule = "invalid-value"

// Violation is one place where an object breaks the API server's
// validation.
type Violation struct {
	// Path is the field the violation is at (map keys, decimal list
	// indexes); lint turns it into file:line:col and the finding's field.
	Path []string
	// Message names the field, gives the API server's reason and says
	// what to do: "spec.replicas: Invalid value: -1: must be greater than
	// or equal to 0".
	Message string
	// AtKey puts the violation on the key at Path (a label key, a data
	// key) rather than on its value.
	AtKey bool
	// Warning is the severity hint: true when the server's dry-run
	// accepts the value and only the create fails (a node port out of
	// range); every other violation is an error.
	Warning bool
}

// sem collects the violations of one built-in object. Its checks read the
// object's decoded Content.
type sem struct {
	o   *manifest.Object
	out []Violation
	// claims are a StatefulSet's volumeClaimTemplates: volumes its pods
	// mount without declaring them.
	claims map[string]bool
	// arena is where at cuts paths from.
	arena []string
}

// Check checks a built-in object the way the API server validates it
// before storing it (k8s.io/kubernetes pkg/apis/*/validation): the values,
// relations and formats the JSON schema cannot express. It returns the
// violations in the order the checks find them; an object of a kind it
// has no checks for has none.
func Check(o *manifest.Object) []Violation {
	check, ok := semanticChecks[o.Group()+"/"+o.Kind]
	if !ok {
		return nil
	}
	a := arenas.Get().(*[]string)
	s := &sem{o: o, arena: (*a)[:0]}
	check(s)
	// The violations' paths leave; the arena is reused by the next object.
	for i := range s.out {
		s.out[i].Path = slices.Clone(s.out[i].Path)
	}
	clear(s.arena)
	*a = s.arena[:0]
	arenas.Put(a)
	return s.out
}

// arenas keeps the path arenas of finished checks (sem.arena) for the
// next: nothing but the violations, copied out, keeps a path of a check.
var arenas = sync.Pool{New: func() any { return new([]string) }}

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
//
// The paths of one object's checks are cut from shared chunks (s.arena),
// which the next object's checks reuse (Check): a check builds a path for
// every field it walks and keeps almost none. Each path is capped at its
// own length, so appending to it copies instead of writing into a
// neighbour.
func (s *sem) at(path []string, more ...string) []string {
	n := len(path) + len(more)
	if len(s.arena)+n > cap(s.arena) {
		// chunks double from arenaFirst, so a small object wastes little
		// and a large one allocates a few times
		c := min(max(2*cap(s.arena), arenaFirst), arenaMax)
		if n > c/4 {
			return append(append(make([]string, 0, n), path...), more...)
		}
		s.arena = make([]string, 0, c)
	}
	start := len(s.arena)
	s.arena = append(append(s.arena, path...), more...)
	return s.arena[start : start+n : start+n]
}

// The chunks of sem.arena hold arenaFirst path elements, then twice as
// many as the last, up to arenaMax.
const (
	arenaFirst = 256
	arenaMax   = 8192
)

// idx is the path element of list index i.
func idx(i int) string { return strconv.Itoa(i) }

// bad reports the value at path.
func (s *sem) bad(path []string, format string, args ...any) {
	s.out = append(s.out, Violation{Path: path, Message: FieldPath(path) + ": " + fmt.Sprintf(format, args...)})
}

// badKey reports the key at path (a label key, a data key).
func (s *sem) badKey(path []string, format string, args ...any) {
	s.out = append(s.out, Violation{Path: path, AtKey: true, Message: FieldPath(path) + ": " + fmt.Sprintf(format, args...)})
}

// required reports a field the server requires when it is missing (or
// where it should be when its parent is missing too).
func (s *sem) required(path []string, what string) {
	where := path
	for len(where) > 0 && !s.o.Has(where...) {
		where = where[:len(where)-1]
	}
	s.out = append(s.out, Violation{Path: where, Message: FieldPath(path) + ": Required value: " + what})
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
	s.enum(s.at(base, key), allowed...)
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
			f(s.at(path, idx(i)), m)
		}
	}
}

// sortedKeys returns m's keys in order: the checks visit keys, and report
// them, in a stable order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
