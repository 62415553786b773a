package library

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/tools/testkube"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/restmapper"
	"k8s.io/client-go/tools/clientcmd"
)

func TestMain(m *testing.M) { testkube.Main(m) }

// enforceTimeout bounds the wait for a new policy to be enforced (the API
// server loads policies and bindings from an informer).
const enforceTimeout = 60 * time.Second

// TestIntegrationLibraryVerdicts proves every verdict of every
// kubeplan-test.yaml against a real kube-apiserver: each directory's policies
// and bindings are installed (renamed per test, bound to the test's namespace
// only), each resource is sent as a server-side dry-run create, and
//   - fail: the server denies it naming the policy, with exactly the message
//     the results entry gives;
//   - pass: the policy matched it and admitted it;
//   - skip: the policy did not match it.
//
// Matched or not is read from a probe: a copy of the policy whose only
// validation is `false`, bound with validationActions [Warn], so the server
// warns for exactly the requests the policy matches.
func TestIntegrationLibraryVerdicts(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	for _, dir := range dirs(t) {
		t.Run(dir, func(t *testing.T) {
			t.Parallel()
			s, err := load(dir)
			if err != nil {
				t.Fatal(err)
			}
			ns := c.Namespace(t)
			k := connect(t, c.AdminKubeconfig())
			in := install(t, k, s, ns, true)
			in.waitEnforced(t, k, s, ns)
			in.checkTypes(t, k)
			verdicts := map[string]verdict{}
			for _, o := range s.resources {
				verdicts[key(o)] = k.dryRun(t, o, ns)
			}
			for _, r := range s.test.Results {
				v, ok := verdicts[r.Resource]
				if !ok {
					t.Errorf("%s: not in the resource files", r.Resource)
					continue
				}
				if v.err != nil {
					t.Errorf("%s: the server refused it for a reason other than a policy: %v", r.Resource, v.err)
					continue
				}
				denial, denied := v.denials[in.names[r.Policy]]
				matched := v.matched[in.probes[r.Policy]]
				got := "skip"
				switch {
				case denied:
					got = "fail"
				case matched:
					got = "pass"
				}
				if got != r.Result {
					t.Errorf("%s under %s: the server says %s, kubeplan-test.yaml says %s (denial: %q)", r.Resource, r.Policy, got, r.Result, denial.message)
					continue
				}
				if denied && !matched {
					t.Errorf("%s under %s: denied, but the probe says the policy did not match it", r.Resource, r.Policy)
				}
				if r.Binding != "" && denied && denial.binding != in.names[r.Binding] {
					t.Errorf("%s under %s: denied by binding %s, want %s", r.Resource, r.Policy, denial.binding, in.names[r.Binding])
				}
				if denied && denial.message != r.Message {
					t.Errorf("%s under %s: the server's message is\n\t%q\nkubeplan-test.yaml says\n\t%q", r.Resource, r.Policy, denial.message, r.Message)
				}
			}
		})
	}
}

// TestIntegrationMissingParamDenies proves the parameterNotFoundAction
// of allowed-image-registries: without its ConfigMap, even an image from an
// allowed registry is denied, naming the policy.
func TestIntegrationMissingParamDenies(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	t.Parallel()
	const policy = "allowed-image-registries"
	s, err := load(policy)
	if err != nil {
		t.Fatal(err)
	}
	ns := c.Namespace(t)
	k := connect(t, c.AdminKubeconfig())
	in := install(t, k, s, ns, false)
	var allowed *unstructured.Unstructured
	for _, r := range s.test.Results {
		if r.Policy == policy && r.Result == "pass" {
			allowed = s.resource(r.Resource)
			break
		}
	}
	var last verdict
	for deadline := time.Now().Add(enforceTimeout); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		last = k.dryRun(t, allowed, ns)
		if d, denied := last.denials[in.names[policy]]; denied {
			t.Logf("%s without its param: %s", key(allowed), d.message)
			if !strings.Contains(d.message, "no params found") {
				t.Errorf("%s without its param: denied with %q, want it to say no params were found", key(allowed), d.message)
			}
			return
		}
	}
	t.Fatalf("%s without its param ConfigMap: not denied after %s: %s", key(allowed), enforceTimeout, describe(last))
}

// kube is an admin client that records the warnings of its requests; a
// test's requests go one at a time.
type kube struct {
	dc       dynamic.Interface
	mapper   meta.RESTMapper
	mu       sync.Mutex
	warnings []string
}

func connect(t *testing.T, kubeconfig string) *kube {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	k := &kube{}
	cfg.Timeout = 30 * time.Second
	cfg.QPS = -1
	cfg.WarningHandler = k
	if k.dc, err = dynamic.NewForConfig(cfg); err != nil {
		t.Fatal(err)
	}
	disc, err := discovery.NewDiscoveryClientForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	k.mapper = restmapper.NewDeferredDiscoveryRESTMapper(memory.NewMemCacheClient(disc))
	return k
}

// HandleWarningHeader records a warning the server sent.
func (k *kube) HandleWarningHeader(_ int, _ string, text string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	k.warnings = append(k.warnings, text)
}

func (k *kube) takeWarnings() []string {
	k.mu.Lock()
	defer k.mu.Unlock()
	w := k.warnings
	k.warnings = nil
	return w
}

// resource is the dynamic client for o's kind, in ns when it is namespaced.
func (k *kube) resource(t *testing.T, o *unstructured.Unstructured, ns string) (dynamic.ResourceInterface, *unstructured.Unstructured) {
	t.Helper()
	gvk := o.GroupVersionKind()
	m, err := k.mapper.RESTMapping(gvk.GroupKind(), gvk.Version)
	if err != nil {
		t.Fatalf("%s: %v", key(o), err)
	}
	o = o.DeepCopy()
	if m.Scope.Name() != meta.RESTScopeNameNamespace {
		return k.dc.Resource(m.Resource), o
	}
	o.SetNamespace(ns)
	return k.dc.Resource(m.Resource).Namespace(ns), o
}

// create creates o for real and deletes it when t ends.
func (k *kube) create(t *testing.T, o *unstructured.Unstructured, ns string) {
	t.Helper()
	ri, o := k.resource(t, o, ns)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	if _, err := ri.Create(ctx, o, metav1.CreateOptions{}); err != nil {
		t.Fatalf("create %s: %v", key(o), err)
	}
	t.Cleanup(func() { _ = ri.Delete(context.Background(), o.GetName(), metav1.DeleteOptions{}) })
}

// verdict is what the server did with a dry-run create.
type verdict struct {
	denials map[string]denial // by policy name
	matched map[string]bool   // probe policies that warned
	err     error             // a refusal that is not a policy's denial
}

type denial struct{ binding, message string }

var (
	deniedRe = regexp.MustCompile(`ValidatingAdmissionPolicy '([^']+)' with binding '([^']+)' denied request: (.*)$`)
	warnedRe = regexp.MustCompile(`^Validation failed for ValidatingAdmissionPolicy '([^']+)' with binding '[^']+': `)
)

// dryRun sends o as a server-side dry-run create into ns.
func (k *kube) dryRun(t *testing.T, o *unstructured.Unstructured, ns string) verdict {
	t.Helper()
	ri, o := k.resource(t, o, ns)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	k.takeWarnings()
	_, err := ri.Create(ctx, o, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	v := verdict{denials: map[string]denial{}, matched: map[string]bool{}}
	for _, w := range k.takeWarnings() {
		if m := warnedRe.FindStringSubmatch(w); m != nil {
			v.matched[m[1]] = true
		}
	}
	if err == nil {
		return v
	}
	if m := deniedRe.FindStringSubmatch(err.Error()); m != nil && apierrors.IsForbidden(err) || m != nil && apierrors.IsInvalid(err) {
		v.denials[m[1]] = denial{binding: m[2], message: m[3]}
		return v
	}
	v.err = err
	return v
}

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

func describe(v verdict) string {
	var parts []string
	for p, d := range v.denials {
		parts = append(parts, fmt.Sprintf("denied by %s: %s", p, d.message))
	}
	for p := range v.matched {
		parts = append(parts, "warned by "+p)
	}
	if v.err != nil {
		parts = append(parts, v.err.Error())
	}
	if len(parts) == 0 {
		return "admitted"
	}
	return strings.Join(parts, "; ")
}
