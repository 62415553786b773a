package library

import (
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
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
		// The policy, or its Warn probe (same paramKind and paramRef): a
		// binding without its params denies whatever its actions, and the
		// API server names whichever of the two it judged first.
		d, denied := last.denials[in.names[policy]]
		for name, pd := range last.denials {
			if !denied && strings.HasPrefix(name, policy+"-probe-") {
				d, denied = pd, true
			}
		}
		if denied {
			t.Logf("%s without its param: %s", key(allowed), d.message)
			if !strings.Contains(d.message, "no params found") {
				t.Errorf("%s without its param: denied with %q, want it to say no params were found", key(allowed), d.message)
			}
			return
		}
	}
	t.Fatalf("%s without its param ConfigMap: not denied after %s: %s", key(allowed), enforceTimeout, describe(last))
}
