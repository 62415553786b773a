package serve_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/serve"
	"github.com/kubeplan/kubeplan/source"
)

// TestIntegrationServeParentPoll: serve's poll of the parents of projects
// in two namespaces finds a suspension in each. An identity that may list
// across namespaces does it with one LIST a poll; one with edit in each
// namespace only is refused that LIST once and then lists namespace by
// namespace, without asking across namespaces again.
func TestIntegrationServeParentPoll(t *testing.T) {
	testkube.Integration(t)
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	defer serve.SetSyncPoll(100 * time.Millisecond)()
	c := testkube.Shared(t)
	for _, tc := range []struct {
		name   string
		narrow bool
	}{{"admin", false}, {"edit in each namespace", true}} {
		t.Run(tc.name, func(t *testing.T) {
			ns1, ns2 := c.Namespace(t), c.Namespace(t)
			kc := c.AdminKubeconfig()
			if tc.narrow {
				user := "poll-" + ns1
				kc = c.User(t, user)
				for _, ns := range []string{ns1, ns2} {
					c.Kubectl(t, "-n", ns, "create", "rolebinding", user, "--clusterrole=edit", "--user="+user)
					waitCan(t, c, kc, ns)
				}
			}
			var mu sync.Mutex
			var listed []string
			defer serve.SetParentListHook(func(_, ns string) {
				mu.Lock()
				defer mu.Unlock()
				listed = append(listed, ns)
			})()
			g := newRepo(t)
			cfg := fmt.Sprintf("projects:\n  - {name: app, path: app, namespace: %s, applyset: configmap/app-set}\n  - {name: web, path: web, namespace: %s, applyset: configmap/web-set}\n", ns1, ns2)
			g.commit("first", map[string]string{"kubeplan.yaml": cfg, "app/a.yaml": configMap("a", "1"), "web/w.yaml": configMap("w", "1")})
			connect := func(p project.Project) (*kube.Client, string, error) {
				cl, err := kube.NewFromKubeconfig(kc, p.Namespace)
				return cl, "test", err
			}
			var rs results
			base := runServe(t, serve.Options{
				Source: source.Git{URL: g.bare, Ref: "main"}, Interval: time.Hour, Listen: "127.0.0.1:0", Connect: connect,
				Plan:  plan.Options{FieldManager: "kubeplan"},
				Apply: apply.Options{FieldManager: "kubeplan", Version: "test", Wait: false},
				OnRun: rs.add, Log: testWriter{t},
			})
			rs.wait(t, 0, "applying app", func(r serve.RunResult) bool { return r.Project == "app" && r.Err == nil && r.Applied == 1 })
			rs.wait(t, 0, "applying web", func(r serve.RunResult) bool { return r.Project == "web" && r.Err == nil && r.Applied == 1 })
			admin, err := kube.NewFromKubeconfig(c.AdminKubeconfig(), ns1)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range []applyset.Parent{{Kind: "ConfigMap", Name: "app-set", Namespace: ns1}, {Kind: "ConfigMap", Name: "web-set", Namespace: ns2}} {
				if _, err := apply.Suspend(context.Background(), admin, p, plan.Suspension{By: "alice", Reason: "freeze"}); err != nil {
					t.Fatal(err)
				}
			}
			for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
				m := scrape(t, base)
				if strings.Contains(m, `kubeplan_suspended{project="app"} 1`) && strings.Contains(m, `kubeplan_suspended{project="web"} 1`) {
					break
				}
				if time.Now().After(deadline) {
					t.Fatalf("the poll did not see both suspensions:\n%s", grepLines(m, "kubeplan_suspended"))
				}
			}
			mu.Lock()
			got := append([]string(nil), listed...)
			mu.Unlock()
			// One LIST across namespaces may see both suspensions.
			if len(got) == 0 {
				t.Fatalf("parents listed %d times: %q", len(got), got)
			}
			all, per := 0, 0
			for _, ns := range got {
				switch ns {
				case "":
					all++
				case ns1, ns2:
					per++
				default:
					t.Fatalf("listed parents in %q: %q", ns, got)
				}
			}
			switch {
			case !tc.narrow && (per != 0 || all != len(got)):
				t.Fatalf("an identity that may list across namespaces listed namespace by namespace: %q", got)
			case tc.narrow && (got[0] != "" || all != 1 || per < 2):
				t.Fatalf("the narrow identity should be refused across namespaces once, then list each namespace: %q", got)
			}
		})
	}
}

// waitCan waits until kc may list ConfigMaps in ns (the authorizer reads
// bindings from a watch cache).
func waitCan(t *testing.T, c *testkube.Cluster, kc, ns string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if out, _ := c.TryKubectl("--kubeconfig", kc, "-n", ns, "auth", "can-i", "list", "configmaps"); strings.TrimSpace(out) == "yes" {
			return
		}
	}
	t.Fatalf("the edit binding in %s did not take effect within 5 s", ns)
}
