package library

import (
	"context"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// installed maps the library's names to the per-test names on the server.
type installed struct {
	names  map[string]string // policy or binding name -> installed name
	probes map[string]string // policy name -> its probe's installed name
}

// install creates s's policies, bindings and params on the server: policy
// and binding names get ns as a suffix, bindings select ns only, params go
// into ns. Each policy gets its probe too.
func install(t *testing.T, k *kube, s *suite, ns string, params bool) *installed {
	t.Helper()
	in := &installed{names: map[string]string{}, probes: map[string]string{}}
	for _, o := range s.policies {
		switch o.GetKind() {
		case "ValidatingAdmissionPolicy", "ValidatingAdmissionPolicyBinding":
			in.names[o.GetName()] = o.GetName() + "-" + ns
		}
	}
	for _, o := range s.policies {
		o = o.DeepCopy()
		switch o.GetKind() {
		case "ValidatingAdmissionPolicy":
			probe := probeOf(o, ns)
			in.probes[o.GetName()] = probe.GetName()
			o.SetName(in.names[o.GetName()])
			k.create(t, o, ns)
			k.create(t, probe, ns)
		case "ValidatingAdmissionPolicyBinding":
			policy, _, _ := unstructured.NestedString(o.Object, "spec", "policyName")
			probe := o.DeepCopy()
			bindTo(t, o, in.names[o.GetName()], in.names[policy], ns)
			bindTo(t, probe, o.GetName()+"-probe", policy+"-probe-"+ns, ns)
			must(t, unstructured.SetNestedStringSlice(probe.Object, []string{"Warn"}, "spec", "validationActions"))
			k.create(t, o, ns)
			k.create(t, probe, ns)
		default: // a param object: into the test's namespace
			if params {
				k.create(t, o, ns)
			}
		}
	}
	return in
}

// probeOf is a copy of policy p that fails every request it matches.
func probeOf(p *unstructured.Unstructured, ns string) *unstructured.Unstructured {
	probe := p.DeepCopy()
	probe.SetName(p.GetName() + "-probe-" + ns)
	unstructured.RemoveNestedField(probe.Object, "spec", "variables")
	probe.Object["spec"].(map[string]any)["validations"] = []any{map[string]any{"expression": "false", "message": "matched"}}
	return probe
}

// bindTo renames binding b to name, points it at policy, restricts it to
// namespace ns and looks its param up in ns.
func bindTo(t *testing.T, b *unstructured.Unstructured, name, policy, ns string) {
	t.Helper()
	b.SetName(name)
	must(t, unstructured.SetNestedField(b.Object, policy, "spec", "policyName"))
	exprs, _, _ := unstructured.NestedSlice(b.Object, "spec", "matchResources", "namespaceSelector", "matchExpressions")
	exprs = append(exprs, map[string]any{"key": "kubernetes.io/metadata.name", "operator": "In", "values": []any{ns}})
	must(t, unstructured.SetNestedSlice(b.Object, exprs, "spec", "matchResources", "namespaceSelector", "matchExpressions"))
	if _, ok, _ := unstructured.NestedMap(b.Object, "spec", "paramRef"); ok {
		must(t, unstructured.SetNestedField(b.Object, ns, "spec", "paramRef", "namespace"))
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// waitEnforced polls until each policy denies its first failing resource and
// its probe warns for it: a new policy or binding is enforced only once the
// API server's informers have seen it.
func (in *installed) waitEnforced(t *testing.T, k *kube, s *suite, ns string) {
	t.Helper()
	for policy := range in.probes {
		var sentinel *unstructured.Unstructured
		for _, r := range s.test.Results {
			if r.Policy == policy && r.Result == "fail" {
				sentinel = s.resource(r.Resource)
				break
			}
		}
		if sentinel == nil {
			t.Fatalf("policy %s has no failing resource to wait for", policy)
		}
		var last verdict
		for deadline := time.Now().Add(enforceTimeout); ; time.Sleep(200 * time.Millisecond) {
			last = k.dryRun(t, sentinel, ns)
			_, denied := last.denials[in.names[policy]]
			if denied && last.matched[in.probes[policy]] {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("policy %s not enforced on %s after %s: %s", policy, key(sentinel), enforceTimeout, describe(last))
			}
		}
	}
}

var policiesGVR = schema.GroupVersionResource{Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingadmissionpolicies"}

// checkTypes fails t when the server's type check of a policy's expressions
// against the schemas of the resources it matches (status.typeChecking) warns
// about any of them.
func (in *installed) checkTypes(t *testing.T, k *kube) {
	t.Helper()
	for policy := range in.probes {
		name := in.names[policy]
		for deadline := time.Now().Add(enforceTimeout); ; time.Sleep(200 * time.Millisecond) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			got, err := k.dc.Resource(policiesGVR).Get(ctx, name, metav1.GetOptions{})
			cancel()
			if err != nil {
				t.Fatalf("policy %s: %v", policy, err)
			}
			if _, checked, _ := unstructured.NestedMap(got.Object, "status", "typeChecking"); checked {
				warnings, _, _ := unstructured.NestedSlice(got.Object, "status", "typeChecking", "expressionWarnings")
				for _, w := range warnings {
					t.Errorf("policy %s: the server's type check warns: %v", policy, w)
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("policy %s: no status.typeChecking after %s", policy, enforceTimeout)
			}
		}
	}
}
