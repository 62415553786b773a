package podrefs

import "strconv"

// Kinds a pod template references.
const (
	Secret                = "Secret"
	ConfigMap             = "ConfigMap"
	ServiceAccount        = "ServiceAccount"
	PersistentVolumeClaim = "PersistentVolumeClaim"
)

// Ref is one reference of a pod template.
type Ref struct {
	Kind string // Secret, ConfigMap, ServiceAccount, PersistentVolumeClaim
	Name string
	// Path is the field naming it, from the object's root
	// (["spec","template","spec","containers","0","envFrom","0","secretRef","name"]).
	Path []string
	// Optional is true for a reference marked optional: true (All only).
	Optional bool
}

// Key identifies what a Ref needs in a namespace.
type Key struct{ Kind, Namespace, Name string }

// PodSpecPath is where kind keeps its pod template's spec, nil for kinds
// without one.
func PodSpecPath(group, kind string) []string {
	switch {
	case group == "" && kind == "Pod":
		return []string{"spec"}
	case group == "apps" && (kind == "Deployment" || kind == "StatefulSet" || kind == "DaemonSet" || kind == "ReplicaSet"),
		group == "batch" && kind == "Job",
		group == "" && kind == "ReplicationController":
		return []string{"spec", "template", "spec"}
	case group == "batch" && kind == "CronJob":
		return []string{"spec", "jobTemplate", "spec", "template", "spec"}
	}
	return nil
}

// Refs lists the references of obj's pod template that must exist: those
// marked optional: true are left out, as is the "default" ServiceAccount
// and the kube-root-ca.crt ConfigMap every namespace has.
func Refs(group, kind string, obj map[string]any) []Ref {
	return refsOf(group, kind, obj, false)
}

// All lists every reference of obj's pod template, those marked optional:
// true included (Ref.Optional): what its pods may read when it exists.
func All(group, kind string, obj map[string]any) []Ref {
	return refsOf(group, kind, obj, true)
}

func refsOf(group, kind string, obj map[string]any, optional bool) []Ref {
	base := PodSpecPath(group, kind)
	if base == nil {
		return nil
	}
	spec, _ := dig(obj, base).(map[string]any)
	if spec == nil {
		return nil
	}
	r := &refs{optional: optional}
	at := func(p ...string) []string { return append(append([]string{}, base...), p...) }
	sa, field := str(spec["serviceAccountName"]), "serviceAccountName"
	if sa == "" {
		sa, field = str(spec["serviceAccount"]), "serviceAccount"
	}
	if sa != "" && sa != "default" {
		r.add(ServiceAccount, sa, at(field))
	}
	for i, ps := range list(spec["imagePullSecrets"]) {
		if m, _ := ps.(map[string]any); m != nil {
			r.add(Secret, str(m["name"]), at("imagePullSecrets", strconv.Itoa(i), "name"))
		}
	}
	for _, cf := range []string{"initContainers", "containers", "ephemeralContainers"} {
		for i, c := range list(spec[cf]) {
			cm, _ := c.(map[string]any)
			r.container(cm, at(cf, strconv.Itoa(i)))
		}
	}
	for i, v := range list(spec["volumes"]) {
		vm, _ := v.(map[string]any)
		r.volume(vm, at("volumes", strconv.Itoa(i)))
	}
	return r.out
}

type refs struct {
	out []Ref
	// optional: keep the references marked optional: true.
	optional bool
}

func (r *refs) add(kind, name string, path []string) {
	if name == "" || kind == ConfigMap && name == "kube-root-ca.crt" {
		return
	}
	r.out = append(r.out, Ref{Kind: kind, Name: name, Path: append([]string(nil), path...)})
}

// optionalRef adds the reference in m[field] (a {name, optional} object),
// one marked optional only when r keeps them.
func (r *refs) optionalRef(kind string, m map[string]any, nameField string, path []string) {
	opt := m["optional"] == true
	if m == nil || opt && !r.optional {
		return
	}
	n := len(r.out)
	r.add(kind, str(m[nameField]), append(append([]string(nil), path...), nameField))
	if len(r.out) > n {
		r.out[n].Optional = opt
	}
}

func (r *refs) container(c map[string]any, path []string) {
	if c == nil {
		return
	}
	for i, e := range list(c["env"]) {
		em, _ := e.(map[string]any)
		vf, _ := em["valueFrom"].(map[string]any)
		p := append(append([]string{}, path...), "env", strconv.Itoa(i), "valueFrom")
		if s, _ := vf["secretKeyRef"].(map[string]any); s != nil {
			r.optionalRef(Secret, s, "name", append(p, "secretKeyRef"))
		}
		if s, _ := vf["configMapKeyRef"].(map[string]any); s != nil {
			r.optionalRef(ConfigMap, s, "name", append(p, "configMapKeyRef"))
		}
	}
	for i, e := range list(c["envFrom"]) {
		em, _ := e.(map[string]any)
		p := append(append([]string{}, path...), "envFrom", strconv.Itoa(i))
		if s, _ := em["secretRef"].(map[string]any); s != nil {
			r.optionalRef(Secret, s, "name", append(p, "secretRef"))
		}
		if s, _ := em["configMapRef"].(map[string]any); s != nil {
			r.optionalRef(ConfigMap, s, "name", append(p, "configMapRef"))
		}
	}
}

func (r *refs) volume(v map[string]any, path []string) {
	if v == nil {
		return
	}
	at := func(p ...string) []string { return append(append([]string{}, path...), p...) }
	if s, _ := v["secret"].(map[string]any); s != nil {
		r.optionalRef(Secret, s, "secretName", at("secret"))
	}
	if s, _ := v["configMap"].(map[string]any); s != nil {
		r.optionalRef(ConfigMap, s, "name", at("configMap"))
	}
	if s, _ := v["persistentVolumeClaim"].(map[string]any); s != nil {
		r.add(PersistentVolumeClaim, str(s["claimName"]), at("persistentVolumeClaim", "claimName"))
	}
	pr, _ := v["projected"].(map[string]any)
	for i, src := range list(pr["sources"]) {
		sm, _ := src.(map[string]any)
		if s, _ := sm["secret"].(map[string]any); s != nil {
			r.optionalRef(Secret, s, "name", at("projected", "sources", strconv.Itoa(i), "secret"))
		}
		if s, _ := sm["configMap"].(map[string]any); s != nil {
			r.optionalRef(ConfigMap, s, "name", at("projected", "sources", strconv.Itoa(i), "configMap"))
		}
	}
}

// Provides lists what obj will make exist in namespace ns (its own
// namespace when it has one): itself, for the kinds pods reference; the
// Secret a SealedSecret or an ExternalSecret creates.
func Provides(group, kind, ns string, obj map[string]any) []Key {
	md, _ := obj["metadata"].(map[string]any)
	if n := str(md["namespace"]); n != "" {
		ns = n
	}
	name := str(md["name"])
	switch {
	case group == "" && (kind == Secret || kind == ConfigMap || kind == ServiceAccount || kind == PersistentVolumeClaim):
		return []Key{{kind, ns, name}}
	case group == "bitnami.com" && kind == "SealedSecret":
		if n := str(dig(obj, []string{"spec", "template", "metadata", "name"})); n != "" {
			name = n
		}
		return []Key{{Secret, ns, name}}
	case group == "external-secrets.io" && kind == "ExternalSecret":
		if n := str(dig(obj, []string{"spec", "target", "name"})); n != "" {
			name = n
		}
		return []Key{{Secret, ns, name}}
	}
	return nil
}

func dig(obj map[string]any, path []string) any {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil
		}
		cur = m[p]
	}
	return cur
}

func str(v any) string { s, _ := v.(string); return s }

func list(v any) []any { l, _ := v.([]any); return l }
