package orphans

import (
	"context"
	"net/http"
	"slices"
	"strings"
	"sync"
	"testing"

	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

func TestMain(m *testing.M) { testkube.Main(m) }

// request is what the test sees of one request.
type request struct{ method, path, query, accept string }

// recording connects to kubeconfig kc with a client whose every request is
// recorded.
func recording(t *testing.T, kc, ns string) (*kube.Client, func() []request) {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kc)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var seen []request
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper {
		return roundTrip(func(r *http.Request) (*http.Response, error) {
			mu.Lock()
			seen = append(seen, request{r.Method, r.URL.Path, r.URL.RawQuery, r.Header.Get("Accept")})
			mu.Unlock()
			return rt.RoundTrip(r)
		})
	}
	c, err := kube.NewForConfig(cfg, ns)
	if err != nil {
		t.Fatal(err)
	}
	return c, func() []request { mu.Lock(); defer mu.Unlock(); return slices.Clone(seen) }
}

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// TestIntegrationFindListsEachTypeOncePerNamespace: in two namespaces,
// Find makes exactly one LIST per listable type per namespace, each for
// metadata only, and reads no object by name (no Secret's data, ever); it
// finds what was made by hand there and nothing Kubernetes made.
func TestIntegrationFindListsEachTypeOncePerNamespace(t *testing.T) {
	testkube.Integration(t)
	cl := testkube.Shared(t)
	a, b := cl.Namespace(t), cl.Namespace(t)
	cl.Kubectl(t, "-n", a, "create", "configmap", "hotfix", "--from-literal=k=v")
	cl.Kubectl(t, "-n", b, "create", "secret", "generic", "leftover", "--from-literal=password=hunter2-canary")
	c, requests := recording(t, cl.AdminKubeconfig(), a)
	r, err := Find(context.Background(), c, []string{b, a, a})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Namespaces, []string{a, b}) {
		t.Errorf("namespaces = %v, want %v", r.Namespaces, []string{a, b})
	}
	var got []string
	for _, o := range r.Objects {
		got = append(got, o.Namespace+" "+o.Ref())
	}
	want := []string{a + " configmap/hotfix", b + " secret/leftover"}
	if !slices.Equal(got, want) {
		t.Errorf("orphans = %v, want %v", got, want)
	}
	if len(r.NotChecked) != 0 {
		t.Errorf("the admin could not check %v", r.NotChecked)
	}
	types, _, err := listable(c.Discovery)
	if err != nil {
		t.Fatal(err)
	}
	lists := map[string]int{}
	for _, q := range requests() {
		if !strings.Contains(q.path, "/namespaces/") {
			continue // discovery
		}
		if q.method != "GET" || !strings.Contains(q.accept, "as=PartialObjectMetadataList") {
			t.Errorf("%s %s?%s (Accept %s): want only LISTs of metadata", q.method, q.path, q.query, q.accept)
		}
		lists[q.path]++
	}
	if len(lists) != 2*len(types) || r.Lists != len(lists) {
		t.Errorf("%d paths listed (%d counted), want %d types x 2 namespaces", len(lists), r.Lists, len(types))
	}
	for path, n := range lists {
		if n != 1 {
			t.Errorf("%s listed %d times, want once", path, n)
		}
		if strings.HasSuffix(path, "/events") || strings.HasSuffix(path, "/leases") {
			t.Errorf("%s listed: Kubernetes alone writes those", path)
		}
	}
	// A second project on the cluster: no discovery again, the same LISTs.
	before := len(requests())
	if _, err := Find(context.Background(), c, []string{a}); err != nil {
		t.Fatal(err)
	}
	for _, q := range requests()[before:] {
		if !strings.Contains(q.path, "/namespaces/"+a+"/") {
			t.Errorf("the second Find asked %s %s: discovery is kept for the run", q.method, q.path)
		}
	}
	for _, want := range []string{"/api/v1/namespaces/" + a + "/configmaps", "/api/v1/namespaces/" + b + "/secrets", "/apis/apps/v1/namespaces/" + a + "/deployments"} {
		if lists[want] != 1 {
			t.Errorf("%s not listed", want)
		}
	}
}

// TestIntegrationFindNarrowIdentity: an identity that may list only
// ConfigMaps in one namespace finds the hand-made ConfigMap there, and
// every other type is not checked (forbidden), not an error.
func TestIntegrationFindNarrowIdentity(t *testing.T) {
	testkube.Integration(t)
	cl := testkube.Shared(t)
	ns := cl.Namespace(t)
	user := "cm-reader-" + ns
	kc := cl.User(t, user)
	cl.Kubectl(t, "-n", ns, "create", "role", "cm-reader", "--verb=list", "--resource=configmaps")
	cl.Kubectl(t, "-n", ns, "create", "rolebinding", "cm-reader", "--role=cm-reader", "--user="+user)
	cl.Kubectl(t, "-n", ns, "create", "configmap", "hotfix", "--from-literal=k=v")
	c, _ := recording(t, kc, ns)
	var r *Result
	for range 50 { // the authorizer reads RBAC from a watch cache
		var err error
		if r, err = Find(context.Background(), c, []string{ns}); err != nil {
			t.Fatal(err)
		}
		if len(r.Objects) > 0 {
			break
		}
	}
	if len(r.Objects) != 1 || r.Objects[0].Ref() != "configmap/hotfix" {
		t.Fatalf("orphans = %+v, want configmap/hotfix alone", r.Objects)
	}
	var forbidden []string
	for _, n := range r.NotChecked {
		if n.Reason != "forbidden" || n.Namespace != ns {
			t.Errorf("not checked: %+v, want forbidden in %s", n, ns)
		}
		forbidden = append(forbidden, n.Type())
	}
	for _, want := range []string{"secrets", "deployments.apps", "roles.rbac.authorization.k8s.io"} {
		if !slices.Contains(forbidden, want) {
			t.Errorf("%s is not among the types not checked: %v", want, forbidden)
		}
	}
	if slices.Contains(forbidden, "configmaps") {
		t.Error("configmaps, which it may list, were not checked")
	}
}
