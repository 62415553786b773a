package admissiondiff

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

func TestMain(m *testing.M) { testkube.Main(m) }

var resources = map[string]schema.GroupVersionResource{
	"ValidatingAdmissionPolicy":        {Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingadmissionpolicies"},
	"ValidatingAdmissionPolicyBinding": {Group: "admissionregistration.k8s.io", Version: "v1", Resource: "validatingadmissionpolicybindings"},
	"ConfigMap":                        {Version: "v1", Resource: "configmaps"},
	"Pod":                              {Version: "v1", Resource: "pods"},
	"Service":                          {Version: "v1", Resource: "services"},
	"Deployment":                       {Group: "apps", Version: "v1", Resource: "deployments"},
	"StatefulSet":                      {Group: "apps", Version: "v1", Resource: "statefulsets"},
	"DaemonSet":                        {Group: "apps", Version: "v1", Resource: "daemonsets"},
	"ReplicaSet":                       {Group: "apps", Version: "v1", Resource: "replicasets"},
	"Job":                              {Group: "batch", Version: "v1", Resource: "jobs"},
	"CronJob":                          {Group: "batch", Version: "v1", Resource: "cronjobs"},
	"Namespace":                        {Version: "v1", Resource: "namespaces"},
}

// TestIntegrationAdmissionDiff installs the policies on the API server,
// dry-runs every object of the corpus, and requires lint/admission's
// offline verdict to be the server's, object for object.
func TestIntegrationAdmissionDiff(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	prod, dev, paramNS := c.Namespace(t), c.Namespace(t), c.Namespace(t)
	run := fmt.Sprintf("r%d", time.Now().UnixNano()%1_000_000_000)
	dc, warnings := client(t, c.AdminKubeconfig())
	ctx := context.Background()

	for ns, env := range map[string]string{prod: "prod", dev: "dev"} {
		patch := fmt.Sprintf(`{"metadata":{"labels":{"admissiondiff-run":%q,"env":%q}}}`, run, env)
		if _, err := dc.Resource(resources["Namespace"]).Patch(ctx, ns, types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	policies := Policies(run, run, paramNS, dev)
	objs, err := Parse("policies.yaml", policies+sentinel(run))
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range objs {
		u := &unstructured.Unstructured{Object: o.Content}
		r := dc.Resource(resources[o.Kind])
		var ri dynamic.ResourceInterface = r
		if o.Namespace != "" {
			ri = r.Namespace(o.Namespace)
		}
		if _, err := ri.Create(ctx, u, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating %s %s: %v", o.Kind, o.Name, err)
		}
		if o.Namespace == "" {
			name := o.Name
			t.Cleanup(func() { _ = r.Delete(context.Background(), name, metav1.DeleteOptions{}) })
		}
	}
	waitEnforced(t, dc, prod, run)
	waitParams(t, dc, prod)

	corpus := Corpus(prod, dev)
	y, err := ToYAML(corpus)
	if err != nil {
		t.Fatal(err)
	}
	set, parsed := offlineSetFor(t, y, run, run, paramNS, prod, dev)

	var agree, denied, warned, admitted int
	for _, o := range parsed {
		server := dryRun(ctx, t, dc, warnings, o.Kind, o.Namespace, o.Content)
		denials, offline := Offline(set, o)
		if d := Compare(server, denials, offline); d != "" {
			t.Errorf("%s %s/%s: %s", o.Kind, o.Namespace, o.Name, d)
			continue
		}
		agree++
		switch {
		case server.Denied:
			denied++
		case len(offline.Warnings) > 0:
			warned++
		default:
			admitted++
		}
	}
	t.Logf("offline and API server agree on %d of %d objects (%d denied, %d admitted with policy warnings, %d admitted without)", agree, len(parsed), denied, warned, admitted)
	if len(parsed) < 200 || denied < 20 || warned < 20 || admitted < 10 {
		t.Errorf("the corpus must exercise the policies: %d objects, %d denied, %d warned, %d admitted", len(parsed), denied, warned, admitted)
	}
}

// sentinel is a policy and binding created after the others: once it
// denies, the API server has the policies created before it.
func sentinel(run string) string {
	return strings.ReplaceAll(`---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: sentinel-RUN
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: ["v1"]
        operations: ["CREATE"]
        resources: ["configmaps"]
    objectSelector:
      matchLabels: {admissiondiff-sentinel: RUN}
  validations:
    - expression: "false"
      message: sentinel
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: sentinel-RUN
spec:
  policyName: sentinel-RUN
  validationActions: [Deny]
  matchResources:
    namespaceSelector:
      matchLabels: {admissiondiff-run: RUN}
`, "RUN", run)
}

func waitEnforced(t *testing.T, dc dynamic.Interface, ns, run string) {
	t.Helper()
	cm := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "sentinel", "namespace": ns, "labels": map[string]any{"admissiondiff-sentinel": run}}}}
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, err := dc.Resource(resources["ConfigMap"]).Namespace(ns).Create(context.Background(), cm, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil && strings.Contains(err.Error(), "sentinel-"+run) {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the sentinel policy is not enforced after 60s (last: %v)", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitParams waits until the policy with params judges with them: the
// API server's informer of the paramKind starts with the first binding
// that needs it, and until it has synced the binding fails to configure.
func waitParams(t *testing.T, dc dynamic.Interface, ns string) {
	t.Helper()
	d := &unstructured.Unstructured{Object: deployment("params-sentinel", ns, 99, "registry.example.com/web:1.2", true, true, "", true)}
	deadline := time.Now().Add(60 * time.Second)
	for {
		_, err := dc.Resource(resources["Deployment"]).Namespace(ns).Create(context.Background(), d, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
		if err != nil && strings.Contains(err.Error(), "asks for 99 replicas") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the policy with params does not judge with them after 60s (last: %v)", err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// warningCollector keeps the warnings of the request whose context
// carries it.
type warningCollector struct {
	mu   sync.Mutex
	list []string
}

type collectorKey struct{}

type warningHandler struct{}

func (warningHandler) HandleWarningHeaderWithContext(ctx context.Context, _ int, _ string, text string) {
	if c, ok := ctx.Value(collectorKey{}).(*warningCollector); ok {
		c.mu.Lock()
		c.list = append(c.list, text)
		c.mu.Unlock()
	}
}

func client(t *testing.T, kubeconfig string) (dynamic.Interface, *warningCollector) {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Timeout = 30 * time.Second
	cfg.QPS = -1
	cfg.WarningHandlerWithContext = warningHandler{}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return dc, &warningCollector{}
}

// dryRun sends one server-side dry-run create and returns what the API
// server said.
func dryRun(ctx context.Context, t *testing.T, dc dynamic.Interface, _ *warningCollector, kind, ns string, content map[string]any) Outcome {
	t.Helper()
	wc := &warningCollector{}
	ctx = context.WithValue(ctx, collectorKey{}, wc)
	u := &unstructured.Unstructured{Object: content}
	_, err := dc.Resource(resources[kind]).Namespace(ns).Create(ctx, u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	o := Outcome{Warnings: wc.list}
	if err != nil {
		var se *apierrors.StatusError
		if !errors.As(err, &se) || se.ErrStatus.Code != 403 && se.ErrStatus.Code != 422 && se.ErrStatus.Code != 400 {
			t.Fatalf("dry-run create of %s %s/%s: %v", kind, ns, u.GetName(), err)
		}
		o.Denied, o.Message = true, se.ErrStatus.Message
	}
	return o
}
