package psadiff

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
)

// Variant is one generated Pod: its name and the edits that made it from
// its base, which name it in failure messages.
type Variant struct {
	Name  string
	Edits []string
	Pod   map[string]any
}

// edit is one change to a pod of the generator: a dimension (edits of the
// same dimension are never combined, as most would contradict each other)
// and what it does to the pod.
type edit struct {
	dim, name string
	apply     func(p map[string]any)
}

func spec(p map[string]any) map[string]any { return p["spec"].(map[string]any) }

func container(p map[string]any) map[string]any {
	return spec(p)["containers"].([]any)[0].(map[string]any)
}

func sub(m map[string]any, key string) map[string]any {
	v, ok := m[key].(map[string]any)
	if !ok {
		v = map[string]any{}
		m[key] = v
	}
	return v
}

func podSC(p map[string]any) map[string]any { return sub(spec(p), "securityContext") }
func ctrSC(p map[string]any) map[string]any { return sub(container(p), "securityContext") }

func set(where func(map[string]any) map[string]any, key string, v any) func(map[string]any) {
	return func(p map[string]any) { where(p)[key] = v }
}

func unset(where func(map[string]any) map[string]any, key string) func(map[string]any) {
	return func(p map[string]any) { delete(where(p), key) }
}

func volume(v map[string]any) func(map[string]any) {
	return func(p map[string]any) {
		v["name"] = "data"
		spec(p)["volumes"] = []any{v}
	}
}

func annotate(key, value string) func(map[string]any) {
	return func(p map[string]any) { sub(p["metadata"].(map[string]any), "annotations")[key] = value }
}

func sysctl(name, value string) func(map[string]any) {
	return func(p map[string]any) {
		podSC(p)["sysctls"] = []any{map[string]any{"name": name, "value": value}}
	}
}

func capabilities(add, drop []any) func(map[string]any) {
	return func(p map[string]any) {
		c := map[string]any{}
		if add != nil {
			c["add"] = add
		}
		if drop != nil {
			c["drop"] = drop
		}
		ctrSC(p)["capabilities"] = c
	}
}

func seccomp(where func(map[string]any) map[string]any, typ string) func(map[string]any) {
	return func(p map[string]any) {
		s := map[string]any{"type": typ}
		if typ == "Localhost" {
			s["localhostProfile"] = "profiles/audit.json"
		}
		where(p)["seccompProfile"] = s
	}
}

func appArmor(where func(map[string]any) map[string]any, typ string) func(map[string]any) {
	return func(p map[string]any) {
		s := map[string]any{"type": typ}
		if typ == "Localhost" {
			s["localhostProfile"] = "k8s-apparmor-example"
		}
		where(p)["appArmorProfile"] = s
	}
}

// edits are every change the generator makes, by dimension: each Pod
// Security check's fields, compliant and not, at pod and container level.
var edits = []edit{
	{"privileged", "privileged=true", func(p map[string]any) {
		// A privileged container cannot say it does not escalate.
		ctrSC(p)["privileged"] = true
		delete(ctrSC(p), "allowPrivilegeEscalation")
	}},
	{"privileged", "privileged=false", set(ctrSC, "privileged", false)},
	{"hostNetwork", "hostNetwork", set(spec, "hostNetwork", true)},
	{"hostPID", "hostPID", set(spec, "hostPID", true)},
	{"hostIPC", "hostIPC", set(spec, "hostIPC", true)},
	{"caps", "add NET_BIND_SERVICE, drop ALL", capabilities([]any{"NET_BIND_SERVICE"}, []any{"ALL"})},
	{"caps", "add NET_BIND_SERVICE", capabilities([]any{"NET_BIND_SERVICE"}, nil)},
	{"caps", "add SYS_ADMIN, drop ALL", capabilities([]any{"SYS_ADMIN"}, []any{"ALL"})},
	{"caps", "add ALL", capabilities([]any{"ALL"}, nil)},
	{"caps", "add CHOWN, drop ALL", capabilities([]any{"CHOWN"}, []any{"ALL"})},
	{"caps", "drop NET_RAW", capabilities(nil, []any{"NET_RAW"})},
	{"caps", "no capabilities", unset(ctrSC, "capabilities")},
	{"volume", "hostPath", volume(map[string]any{"hostPath": map[string]any{"path": "/var/log"}})},
	{"volume", "emptyDir", volume(map[string]any{"emptyDir": map[string]any{}})},
	{"volume", "configMap", volume(map[string]any{"configMap": map[string]any{"name": "settings"}})},
	{"volume", "ephemeral", volume(map[string]any{"ephemeral": map[string]any{"volumeClaimTemplate": map[string]any{"spec": map[string]any{
		"accessModes": []any{"ReadWriteOnce"}, "resources": map[string]any{"requests": map[string]any{"storage": "1Gi"}}}}}})},
	{"volume", "nfs", volume(map[string]any{"nfs": map[string]any{"server": "nfs.example.com", "path": "/exports"}})},
	{"podSeccomp", "pod seccomp RuntimeDefault", seccomp(podSC, "RuntimeDefault")},
	{"podSeccomp", "pod seccomp Unconfined", seccomp(podSC, "Unconfined")},
	{"podSeccomp", "pod seccomp Localhost", seccomp(podSC, "Localhost")},
	{"podSeccomp", "no pod seccomp", unset(podSC, "seccompProfile")},
	{"ctrSeccomp", "container seccomp RuntimeDefault", seccomp(ctrSC, "RuntimeDefault")},
	{"ctrSeccomp", "container seccomp Unconfined", seccomp(ctrSC, "Unconfined")},
	{"ctrSeccomp", "container seccomp Localhost", seccomp(ctrSC, "Localhost")},
	{"appArmor", "AppArmor annotation runtime/default", annotate("container.apparmor.security.beta.kubernetes.io/app", "runtime/default")},
	{"appArmor", "AppArmor annotation unconfined", annotate("container.apparmor.security.beta.kubernetes.io/app", "unconfined")},
	{"appArmor", "AppArmor annotation localhost", annotate("container.apparmor.security.beta.kubernetes.io/app", "localhost/k8s-apparmor-example")},
	{"appArmor", "pod AppArmor field Unconfined", appArmor(podSC, "Unconfined")},
	{"appArmor", "pod AppArmor field RuntimeDefault", appArmor(podSC, "RuntimeDefault")},
	{"appArmor", "container AppArmor field Unconfined", appArmor(ctrSC, "Unconfined")},
	{"appArmor", "container AppArmor field Localhost", appArmor(ctrSC, "Localhost")},
	{"nonRoot", "pod runAsNonRoot=false", set(podSC, "runAsNonRoot", false)},
	{"nonRoot", "no pod runAsNonRoot", unset(podSC, "runAsNonRoot")},
	{"nonRoot", "container runAsNonRoot=true", set(ctrSC, "runAsNonRoot", true)},
	{"nonRoot", "container runAsNonRoot=false", set(ctrSC, "runAsNonRoot", false)},
	{"user", "pod runAsUser=0", set(podSC, "runAsUser", 0)},
	{"user", "container runAsUser=0", set(ctrSC, "runAsUser", 0)},
	{"user", "container runAsUser=1000", set(ctrSC, "runAsUser", 1000)},
	{"sysctl", "sysctl kernel.shm_rmid_forced", sysctl("kernel.shm_rmid_forced", "1")},
	{"sysctl", "sysctl net.ipv4.ip_local_port_range", sysctl("net.ipv4.ip_local_port_range", "1024 65535")},
	{"sysctl", "sysctl net.ipv4.ip_unprivileged_port_start", sysctl("net.ipv4.ip_unprivileged_port_start", "1024")},
	{"sysctl", "sysctl net.ipv4.tcp_keepalive_time", sysctl("net.ipv4.tcp_keepalive_time", "600")},
	{"sysctl", "unsafe sysctl kernel.msgmax", sysctl("kernel.msgmax", "65536")},
	{"sysctl", "unsafe sysctl net.core.somaxconn", sysctl("net.core.somaxconn", "1024")},
	{"hostPort", "hostPort 8080", set(container, "ports", []any{map[string]any{"containerPort": 8080, "hostPort": 8080}})},
	{"procMount", "procMount Unmasked, hostUsers=false", func(p map[string]any) { ctrSC(p)["procMount"] = "Unmasked"; spec(p)["hostUsers"] = false }},
	{"procMount", "procMount Default", set(ctrSC, "procMount", "Default")},
	{"escalation", "allowPrivilegeEscalation=true", set(ctrSC, "allowPrivilegeEscalation", true)},
	{"escalation", "no allowPrivilegeEscalation", unset(ctrSC, "allowPrivilegeEscalation")},
	{"windows", "windows hostProcess", func(p map[string]any) {
		spec(p)["hostNetwork"] = true
		ctrSC(p)["windowsOptions"] = map[string]any{"hostProcess": true, "runAsUserName": "NT AUTHORITY\\SYSTEM"}
	}},
	{"windows", "os windows", func(p map[string]any) {
		spec(p)["os"] = map[string]any{"name": "windows"}
		// The API server refuses Linux-only fields in a Windows pod, so
		// this edit comes last and takes them away.
		for _, f := range []string{"seccompProfile", "appArmorProfile", "runAsUser", "sysctls"} {
			delete(podSC(p), f)
		}
		for _, f := range []string{"seccompProfile", "appArmorProfile", "runAsUser", "capabilities", "allowPrivilegeEscalation", "privileged", "procMount"} {
			delete(ctrSC(p), f)
		}
		delete(spec(p), "hostUsers")
	}},
	{"windows", "windows runAsUserName", set(ctrSC, "windowsOptions", map[string]any{"runAsUserName": "ContainerUser"})},
}

// base is a restricted-compliant Pod when restricted, else a bare one
// (what baseline admits and restricted refuses).
func base(name string, restricted bool) map[string]any {
	c := map[string]any{"name": "app", "image": "registry.example.com/app:1.0"}
	p := map[string]any{
		"apiVersion": "v1", "kind": "Pod",
		"metadata": map[string]any{"name": name},
		"spec":     map[string]any{"containers": []any{c}},
	}
	if restricted {
		spec(p)["securityContext"] = map[string]any{"runAsNonRoot": true, "seccompProfile": map[string]any{"type": "RuntimeDefault"}}
		c["securityContext"] = map[string]any{"allowPrivilegeEscalation": false, "capabilities": map[string]any{"drop": []any{"ALL"}}}
	}
	return p
}

// Variants are n pods (n at least twice the number of edits): first each
// edit alone on both bases, then pods of one to four edits of different
// dimensions drawn from a fixed seed, so every run sends the same pods.
func Variants(n int) []Variant {
	var out []Variant
	add := func(restricted bool, es []edit) {
		v := Variant{Name: fmt.Sprintf("v%03d", len(out)), Pod: base(fmt.Sprintf("v%03d", len(out)), restricted)}
		v.Edits = append(v.Edits, map[bool]string{true: "restricted base", false: "bare base"}[restricted])
		for _, e := range es {
			e.apply(v.Pod)
			v.Edits = append(v.Edits, e.name)
		}
		out = append(out, v)
	}
	for _, restricted := range []bool{true, false} {
		add(restricted, nil)
		for _, e := range edits {
			add(restricted, []edit{e})
		}
	}
	rng := rand.New(rand.NewPCG(31, 3))
	for len(out) < n {
		restricted := rng.IntN(3) > 0
		k := 1 + rng.IntN(4)
		dims := map[string]bool{}
		var es []edit
		for len(es) < k {
			e := edits[rng.IntN(len(edits))]
			if dims[e.dim] {
				continue
			}
			dims[e.dim] = true
			es = append(es, e)
		}
		// The Windows edits come last: "os windows" removes Linux fields.
		last := func(e edit) int {
			if e.dim == "windows" {
				return 1
			}
			return 0
		}
		slices.SortStableFunc(es, func(a, b edit) int { return cmp.Compare(last(a), last(b)) })
		add(restricted, es)
	}
	return out
}

// String is the variant's name and edits, for failure messages.
func (v Variant) String() string { return v.Name + " (" + strings.Join(v.Edits, "; ") + ")" }
