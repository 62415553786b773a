package plan_test

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
)

// TestIntegrationReadAheadOne: what ReadAheadOne reads for one project (its
// Namespace, the identity's rules there, the parent, the members, the
// autoscalers) is all the plan then reads besides its dry-runs, and the
// plan is the same as one made without it: a parent that does not exist
// yet (all created: each object is read on its own), a hand-scaled
// Deployment (drift) and a removed file (a prune).
func TestIntegrationReadAheadOne(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := narrow(t, c, ns)
	ctx := context.Background()
	as := applyset.Parent{Kind: "ConfigMap", Name: "one-applyset", Namespace: ns}
	dir := writeSet(t, map[string]string{"deployment.yaml": seedDeployment, "service.yaml": seedService, "configmap.yaml": seedConfigMap})

	// same plans with and without the read-ahead; after it the plan makes
	// reads (GETs) only of the objects outside the set (fresh).
	same := func(t *testing.T, as applyset.Parent, fresh int) *plan.Plan {
		t.Helper()
		opts := plan.Options{Namespace: ns, ApplySet: &as, Adopt: true}
		want, err := plan.Make(ctx, client(t, kc, ns), load(t, dir), opts)
		if err != nil {
			t.Fatal(err)
		}
		cl := client(t, kc, ns)
		opts.Namespaces = plan.NewNamespaces(cl, nil)
		opts.ReadAhead = plan.ReadAheadOne(ctx, cl, ns, &as, opts.Namespaces)
		gets, reviews := cl.Requests.Count("GET"), cl.Requests.Count("POST (review)")
		if gets < 3 || reviews != 1 {
			t.Fatalf("the read-ahead made %d GETs and %d reviews", gets, reviews)
		}
		got, err := plan.Make(ctx, cl, load(t, dir), opts)
		if err != nil {
			t.Fatal(err)
		}
		if n := cl.Requests.Count("GET") - gets; n != fresh {
			t.Errorf("the plan read %d more times after the read-ahead, want %d (the objects outside the set)", n, fresh)
		}
		if n := cl.Requests.Count("POST (review)") - reviews; n != 0 {
			t.Errorf("the plan reviewed access %d more times after the read-ahead", n)
		}
		if a, b := changesJSON(t, want), changesJSON(t, got); a != b {
			t.Errorf("plan with the read-ahead:\n%s\nwithout:\n%s", b, a)
		}
		return got
	}

	t.Run("a new set", func(t *testing.T) {
		if got := summary(same(t, as, 3)); got != "Plan: 3 to add, 0 to change, 0 to prune, 0 unchanged." {
			t.Errorf("new set: %s", got)
		}
	})

	t.Setenv("KUBECTL_APPLYSET", "true")
	c.Kubectl(t, "--kubeconfig", kc, "-n", ns, "apply", "--server-side", "--field-manager=kubeplan", "--prune", "--applyset=configmap/one-applyset", "-f", dir)
	c.Kubectl(t, "-n", ns, "scale", "deployment/web", "--replicas=6")
	if err := os.Remove(filepath.Join(dir, "configmap.yaml")); err != nil {
		t.Fatal(err)
	}
	t.Run("drift and a prune", func(t *testing.T) {
		p := same(t, as, 0)
		if got := summary(p); got != "Plan: 0 to add, 1 to change, 1 to prune, 1 unchanged." {
			t.Errorf("applied set: %s", got)
		}
		if web := find(p, "deployment.apps/web"); web == nil || len(web.Drift) != 1 {
			t.Errorf("scaled deployment: %+v", web)
		}
	})
}

// changesJSON is p's changes but for the live objects' resource versions
// (the controllers write the status of the scaled Deployment between two
// plans).
func changesJSON(t *testing.T, p *plan.Plan) string {
	t.Helper()
	cs := slices.Clone(p.Changes)
	for i := range cs {
		cs[i].LiveResourceVersion = ""
	}
	b, err := json.MarshalIndent(cs, "", " ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
