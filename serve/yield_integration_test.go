package serve_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/notify"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/serve"
	"github.com/kubeplan/kubeplan/source"
)

// TestIntegrationServeYieldHint runs serve against a second client that
// sets a ConfigMap's field after every run, as field manager
// other-controller: serve takes it back each time, and on the third run
// in a row says so once (RunResult.YieldHints, a YieldSuggested Event on
// the parent) with the rule to add. Committing that rule ends the
// repairs: the runs write nothing and the other controller's value stays.
func TestIntegrationServeYieldHint(t *testing.T) {
	testkube.Integration(t)
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	g := newRepo(t)
	cfg := fmt.Sprintf("projects:\n  - name: app\n    path: app\n    namespace: %s\n    applyset: configmap/app-set\n    interval: 1s\n", ns)
	g.commit("first", map[string]string{"kubeplan.yaml": cfg, "app/settings.yaml": configMap("settings", "a")})

	// The other controller: after each run, a new value of data.value.
	tmp := t.TempDir()
	var mu sync.Mutex
	writes, last := 0, ""
	other := func() {
		mu.Lock()
		defer mu.Unlock()
		writes++
		last = fmt.Sprintf("other-%d", writes)
		f := filepath.Join(tmp, "other.yaml")
		if err := os.WriteFile(f, []byte(configMap("settings", last)), 0o644); err != nil {
			t.Error(err)
			return
		}
		if out, err := c.TryKubectl("-n", ns, "apply", "--server-side", "--field-manager=other-controller", "--force-conflicts", "-f", f); err != nil {
			t.Errorf("the other controller's apply: %v\n%s", err, out)
		}
	}
	var rs results
	var notified observer
	notifyRun := serve.Notify(&notified, nil)
	onRun := func(ctx context.Context, r serve.RunResult) {
		rs.add(ctx, r)
		notifyRun(ctx, r)
		if r.Err == nil {
			other()
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serve.Run(ctx, serve.Options{
			Source: source.Git{URL: g.bare, Ref: "main"},
			Connect: func(project.Project) (*kube.Client, string, error) {
				cl, err := kube.NewFromKubeconfig(c.AdminKubeconfig(), ns)
				return cl, "test", err
			},
			Plan:  plan.Options{FieldManager: "kubeplan"},
			Apply: apply.Options{FieldManager: "kubeplan", Version: "test"},
			OnRun: onRun,
			Log:   testWriter{t},
		}, nil)
	}()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("serve.Run: %v", err)
			}
		})
	}
	defer stop()

	_, n := rs.wait(t, 0, "creating the ConfigMap", func(r serve.RunResult) bool { return r.Err == nil && r.Applied == 1 && r.Drifted == 0 })
	repairs := 0
	var hint serve.YieldHint
	for repairs < serve.YieldRuns {
		var res serve.RunResult
		res, n = rs.wait(t, n, "taking data.value back", func(r serve.RunResult) bool { return r.Err == nil })
		if res.Drifted != 1 || res.Applied != 1 {
			t.Fatalf("run after the other controller wrote: %+v", res)
		}
		repairs++
		if repairs < serve.YieldRuns && len(res.YieldHints) != 0 {
			t.Fatalf("a hint after %d repairs: %+v", repairs, res.YieldHints)
		}
		if repairs == serve.YieldRuns {
			if len(res.YieldHints) != 1 {
				t.Fatalf("run %d: hints %+v, want one", repairs, res.YieldHints)
			}
			hint = res.YieldHints[0]
		}
	}
	wantRule := `yield: [{kind: ConfigMap, paths: ["data.value"]}]`
	if hint.Object != "configmap/settings" || hint.Field != "data.value" || hint.Manager != "other-controller" || hint.Rule != wantRule {
		t.Errorf("hint: %+v", hint)
	}
	ev := expectEvent(t, c, ns, serve.ReasonYieldSuggested, "Warning", wantRule)
	if !strings.Contains(ev, "data.value of configmap/settings was set by other-controller and taken back in 3 runs in a row") {
		t.Errorf("the Event: %s", ev)
	}
	// Told once: two more repairs, no other hint and no other Event.
	for range 2 {
		var res serve.RunResult
		res, n = rs.wait(t, n, "taking data.value back again", func(r serve.RunResult) bool { return r.Err == nil })
		if res.Drifted != 1 || len(res.YieldHints) != 0 {
			t.Errorf("a run after the hint: %+v", res)
		}
	}
	if got := countEvents(t, c, ns, serve.ReasonYieldSuggested); got != 1 {
		t.Errorf("%d YieldSuggested Events, want 1", got)
	}
	if hs := notified.hints(); len(hs) != 1 || !strings.Contains(hs[0], wantRule) {
		t.Errorf("the notifier was handed the hints %q, want one with the rule", hs)
	}

	// The rule, as suggested, ends the repairs.
	withRule := g.commit("yield data.value", map[string]string{"kubeplan.yaml": cfg + hint.Rule + "\n"})
	_, n = rs.wait(t, n, "at the commit with the rule", func(r serve.RunResult) bool { return r.Revision == withRule })
	for range 2 {
		var res serve.RunResult
		res, n = rs.wait(t, n, "leaving data.value alone", func(r serve.RunResult) bool { return r.Revision == withRule })
		if res.Err != nil || res.Applied != 0 || res.Drifted != 0 {
			t.Errorf("a run with the rule: %+v", res)
		}
	}
	stop() // no run after this: the other controller's last value stays
	mu.Lock()
	defer mu.Unlock()
	deadline := time.Now().Add(5 * time.Second)
	for {
		got := c.Kubectl(t, "-n", ns, "get", "configmap", "settings", "-o", "jsonpath={.data.value}")
		if got == last {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("data.value = %q, want the other controller's %q", got, last)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// observer records the yield hints serve.Notify hands the notifier.
type observer struct {
	mu  sync.Mutex
	all []string
}

func (o *observer) Observe(_ context.Context, r notify.Run) error {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.all = append(o.all, r.YieldHints...)
	return nil
}

func (o *observer) hints() []string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return append([]string(nil), o.all...)
}
