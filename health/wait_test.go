package health

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

func TestHealthCurrentOnWrite(t *testing.T) {
	svc := func(typ string) map[string]any {
		return map[string]any{"spec": map[string]any{"type": typ}}
	}
	for _, tc := range []struct {
		ref  kube.Ref
		obj  map[string]any
		want bool
	}{
		{kube.Ref{Version: "v1", Kind: "ConfigMap"}, nil, true},
		{kube.Ref{Version: "v1", Kind: "Secret"}, nil, true},
		{kube.Ref{Group: "rbac.authorization.k8s.io", Version: "v1", Kind: "ClusterRoleBinding"}, nil, true},
		{kube.Ref{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy"}, nil, true},
		{kube.Ref{Version: "v1", Kind: "Service"}, svc(""), true},
		{kube.Ref{Version: "v1", Kind: "Service"}, svc("NodePort"), true},
		{kube.Ref{Version: "v1", Kind: "Service"}, svc("LoadBalancer"), false},
		{kube.Ref{Version: "v1", Kind: "Service"}, nil, false}, // not known: read it
		{kube.Ref{Group: "apps", Version: "v1", Kind: "Deployment"}, nil, false},
		{kube.Ref{Group: "policy", Version: "v1", Kind: "PodDisruptionBudget"}, nil, false},
		{kube.Ref{Group: "example.com", Version: "v1", Kind: "ConfigMap"}, nil, false},
	} {
		if got := healthCurrentOnWrite(tc.ref, tc.obj); got != tc.want {
			t.Errorf("%s %v: got %v", tc.ref, tc.obj, got)
		}
	}
}

// healthRecorder records what the engine reports.
type healthRecorder struct {
	mu      sync.Mutex
	phases  []string
	pending [][]Result
}

func (r *healthRecorder) Phase(name string, done, total int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.phases = append(r.phases, fmt.Sprintf("%s %d/%d", name, done, total))
}

func (r *healthRecorder) Pending(p []Result) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.pending = append(r.pending, p)
}

// healthConfigMaps returns n ConfigMaps cm-0..cm-(n-1) and their refs.
func healthConfigMaps(ns string, n int) (string, []kube.Ref) {
	var b strings.Builder
	var refs []kube.Ref
	for i := range n {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: cm-%d}\ndata: {a: b}\n", i)
		refs = append(refs, kube.Ref{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: ns, Name: fmt.Sprintf("cm-%d", i)})
	}
	return b.String(), refs
}

func healthDeployResRef(ns, name string) kube.Ref {
	r := healthDeployRef(ns, name)
	r.Resource = "deployments"
	return r
}

func healthGets(cl *kube.Client) int { return cl.Requests.Count("GET") }

func TestIntegrationHealthManyConfigMapsFewRequests(t *testing.T) {
	c, ns, cl := healthSetup(t)
	cms, refs := healthConfigMaps(ns, 300)
	healthApply(t, c, ns, cms)
	// The Deployments last, so that the wait sees them roll out.
	healthApply(t, c, ns, testkube.Deployment("web", "nginx:1.27", 2)+"---\n"+testkube.Deployment("api", "nginx:1.27", 1))
	refs = append(refs, healthDeployResRef(ns, "web"), healthDeployResRef(ns, "api"))
	before := healthGets(cl)
	rec := &healthRecorder{}
	start := time.Now()
	res, err := Wait(t.Context(), cl, refs, WaitOptions{Timeout: 60 * time.Second, Reporter: rec})
	if err != nil {
		t.Fatalf("Wait: %v", err)
	}
	gets := healthGets(cl) - before
	t.Logf("%d GETs (LIST and WATCH) in %s; phases %v", gets, time.Since(start).Round(time.Millisecond), rec.phases)
	// Deployments: a LIST and a WATCH; their pods, when one was not ready
	// yet: a LIST and a WATCH; a watch the server closed: one more of each.
	if gets > 6 {
		t.Errorf("%d GETs for 302 objects, want at most 6", gets)
	}
	if w := cl.Requests.Writes(); w != 0 {
		t.Errorf("%d writes", w)
	}
	for _, r := range res {
		if r.Status != Current {
			t.Errorf("%s: %s %s", r.Ref, r.Status, r.Message)
		}
	}
	if len(rec.phases) == 0 || rec.phases[len(rec.phases)-1] != "waiting 302/302" || !strings.HasPrefix(rec.phases[0], "waiting 300/302") {
		t.Errorf("phases %v: want waiting 300/302 (the ConfigMaps at once) ... 302/302", rec.phases)
	}
}

func TestIntegrationHealthBadImageAmongConfigMaps(t *testing.T) {
	c, ns, cl := healthSetup(t)
	cms, refs := healthConfigMaps(ns, 50)
	healthApply(t, c, ns, cms+"---\n"+testkube.Deployment("bad", "nginx:doesnotexist", 1)+"---\n"+testkube.Deployment("good", "nginx:1.27", 1))
	refs = append(refs, healthDeployRef(ns, "bad"), healthDeployRef(ns, "good"))
	rec := &healthRecorder{}
	_, err := Wait(t.Context(), cl, refs, WaitOptions{Timeout: 10 * time.Second, Reporter: rec})
	var ue *UnhealthyError
	if !errors.As(err, &ue) || !ue.Timeout {
		t.Fatalf("want a timeout, got %v", err)
	}
	msg := err.Error()
	if len(ue.Results) != 1 || !strings.Contains(msg, "deployment.apps/bad: 0/1 available: ") ||
		!(strings.Contains(msg, "ImagePullBackOff") || strings.Contains(msg, "ErrImagePull")) {
		t.Errorf("the error should name only the bad Deployment and why:\n%s", msg)
	}
	if strings.Contains(msg, "not checked yet") || strings.Contains(msg, healthNoAnswer) {
		t.Errorf("the error has objects never read:\n%s", msg)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.pending) == 0 || !slices.ContainsFunc(rec.pending[len(rec.pending)-1], func(r Result) bool { return r.Ref.Name == "bad" }) {
		t.Errorf("Pending never named the bad Deployment: %v", rec.pending)
	}
}

// An identity that may GET Deployments but not LIST or WATCH them: the wait
// falls back to a GET per object.
func TestIntegrationHealthGetOnlyIdentity(t *testing.T) {
	c, ns, _ := healthSetup(t)
	healthApply(t, c, ns, testkube.Deployment("web", "nginx:1.27", 1))
	user := "getonly-" + ns
	kc := c.User(t, user)
	healthApply(t, c, ns, fmt.Sprintf(`apiVersion: rbac.authorization.k8s.io/v1
kind: Role
metadata: {name: getonly}
rules: [{apiGroups: [apps], resources: [deployments], verbs: [get]}]
---
apiVersion: rbac.authorization.k8s.io/v1
kind: RoleBinding
metadata: {name: getonly}
roleRef: {apiGroup: rbac.authorization.k8s.io, kind: Role, name: getonly}
subjects: [{apiGroup: rbac.authorization.k8s.io, kind: User, name: %s}]
`, user))
	cl, err := kube.NewFromKubeconfig(kc, ns)
	if err != nil {
		t.Fatal(err)
	}
	gvr := schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "deployments"}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		if _, err := cl.Dynamic.Resource(gvr).Namespace(ns).Get(t.Context(), "web", metav1.GetOptions{}); err == nil {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("the binding did not take effect: %v", err)
		}
	}
	refs := []kube.Ref{healthDeployResRef(ns, "web"), healthDeployResRef(ns, "gone")}
	res, err := Wait(t.Context(), cl, refs[:1], WaitOptions{Timeout: 60 * time.Second, Interval: 300 * time.Millisecond})
	if err != nil || res[0].Status != Current {
		t.Fatalf("Wait: %v %+v", err, res)
	}
	got := Assess(t.Context(), cl, refs, nil)
	if got[0].Status != Current || got[1].Status != NotFound {
		t.Errorf("Assess: %+v", got)
	}
}

func TestIntegrationHealthAssessListsPerResource(t *testing.T) {
	c, ns, cl := healthSetup(t)
	cms, refs := healthConfigMaps(ns, 40)
	healthApply(t, c, ns, cms+"---\n"+testkube.Deployment("bad", "nginx:doesnotexist", 1))
	refs = append(refs, healthDeployResRef(ns, "bad"),
		kube.Ref{Version: "v1", Kind: "ConfigMap", Resource: "configmaps", Namespace: ns, Name: "missing"})
	// Let the Deployment's pod fail to pull.
	var out []Result
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(500 * time.Millisecond) {
		before := healthGets(cl)
		out = Assess(t.Context(), cl, refs, nil)
		if gets := healthGets(cl) - before; gets > 3 {
			t.Fatalf("%d GETs: want a LIST of ConfigMaps, of Deployments and of pods", gets)
		}
		if strings.Contains(out[40].Message, "Image") {
			break
		}
	}
	for _, r := range out[:40] {
		if r.Status != Current {
			t.Errorf("%s: %s %s", r.Ref, r.Status, r.Message)
		}
	}
	if r := out[40]; r.Status != InProgress || !strings.HasPrefix(r.Message, "0/1 available: ") || !strings.Contains(r.Message, "Image") {
		t.Errorf("%s: %s %s", r.Ref, r.Status, r.Message)
	}
	if r := out[41]; r.Status != NotFound {
		t.Errorf("%s: %s %s", r.Ref, r.Status, r.Message)
	}
}
