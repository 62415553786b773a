package plan_test

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
)

// The objects of the differential test: defaulted list keys (a port's
// protocol), a value the server rewrites (cpu "0.5" is kept as "500m"),
// atomic maps (selectors), an associative list of volumes, labels.
const noopDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: api
  labels: {app: api, tier: backend}
spec:
  replicas: 2
  selector:
    matchLabels: {app: api}
  template:
    metadata:
      labels: {app: api}
    spec:
      containers:
      - name: api
        image: nginx:1.30
        args: [--port, "8080"]
        ports:
        - containerPort: 8080
          name: http
        resources:
          limits: {cpu: 500m, memory: 64Mi}
      - name: sidecar
        image: busybox:1.36
        env:
        - {name: A, value: "1"}
        - {name: B, value: "two"}
      volumes:
      - name: scratch
        emptyDir: {}
`

// worker's cpu "0.5" is stored as "500m": only a dry-run can tell that
// applying it again changes nothing.
const noopWorker = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: worker
spec:
  selector:
    matchLabels: {app: worker}
  template:
    metadata:
      labels: {app: worker}
    spec:
      containers:
      - name: worker
        image: busybox:1.36
        resources:
          requests: {cpu: "0.5"}
`

const noopConfigMap = `apiVersion: v1
kind: ConfigMap
metadata:
  name: settings
  labels: {team: shop, tier: web}
  annotations: {owner: platform}
data:
  currency: EUR
  region: eu
`

// TestIntegrationPlanProofMatchesDryRun checks the dry-run-free proof that
// an object is already applied against the server: after each change to
// the cluster or to the manifests, the plan made with the proof and the
// plan made by dry-running every object must agree on every action and
// diff, and the proof must have saved the dry-runs it can.
func TestIntegrationPlanProofMatchesDryRun(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := narrow(t, c, ns)
	ctx := context.Background()
	files := map[string]string{"deployment.yaml": noopDeployment, "service.yaml": seedService, "configmap.yaml": noopConfigMap, "worker.yaml": noopWorker}
	dir := writeSet(t, files)
	c.Kubectl(t, "--kubeconfig", kc, "-n", ns, "apply", "--server-side", "--field-manager=kubeplan", "-f", dir)

	compare := func(step string, wantDryRuns int, want map[string]plan.Action) {
		t.Helper()
		cl := client(t, kc, ns)
		fast, err := plan.Make(ctx, cl, load(t, dir), plan.Options{Namespace: ns})
		if err != nil {
			t.Fatalf("%s: %v", step, err)
		}
		plan.SetProofs(false)
		slow, err := plan.Make(ctx, client(t, kc, ns), load(t, dir), plan.Options{Namespace: ns})
		plan.SetProofs(true)
		if err != nil {
			t.Fatalf("%s (dry-running all): %v", step, err)
		}
		if n := cl.Requests.Count("PATCH (dry-run)"); n != wantDryRuns {
			t.Errorf("%s: %d dry-runs, want %d", step, n, wantDryRuns)
		}
		if len(fast.Changes) != len(slow.Changes) {
			t.Fatalf("%s: %d changes with the proof, %d without", step, len(fast.Changes), len(slow.Changes))
		}
		for i, f := range fast.Changes {
			s := slow.Changes[i]
			if f.Ref != s.Ref || f.Action != s.Action || f.Diff != s.Diff || len(f.Drift) != len(s.Drift) {
				t.Errorf("%s: %s: with the proof %s %q drift %v; dry-run %s %q drift %v", step, f.Ref, f.Action, f.Diff, f.Drift, s.Action, s.Diff, s.Drift)
			}
			if w, ok := want[f.Ref.String()]; ok && f.Action != w {
				t.Errorf("%s: %s is %s, want %s", step, f.Ref, f.Action, w)
			}
		}
	}
	edit := func(name, from, to string) {
		t.Helper()
		b := strings.Replace(files[name], from, to, 1)
		if b == files[name] {
			t.Fatalf("%q not in %s", from, name)
		}
		files[name] = b
		if err := os.WriteFile(filepath.Join(dir, name), []byte(b), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	all := map[string]plan.Action{"deployment.apps/api": plan.Unchanged, "deployment.apps/worker": plan.Unchanged, "service/web": plan.Unchanged, "configmap/settings": plan.Unchanged}
	reapply := func() {
		t.Helper()
		c.Kubectl(t, "--kubeconfig", kc, "-n", ns, "apply", "--server-side", "--force-conflicts", "--field-manager=kubeplan", "-f", dir)
	}

	// Nothing changed: only worker, whose cpu the server rewrote, needs its
	// dry-run.
	compare("no change", 1, all)
	// Someone else labels the ConfigMap: not kubeplan's field, no change.
	c.Kubectl(t, "-n", ns, "label", "configmap", "settings", "by-hand=yes")
	compare("foreign label", 1, all)
	// A value kubeplan owns edited by hand: drift, caught.
	c.Kubectl(t, "-n", ns, "patch", "configmap", "settings", "-p", `{"data":{"region":"us"}}`)
	// (An object with drift takes two dry-runs: the conflict, then forced.)
	compare("hand edit", 3, map[string]plan.Action{"configmap/settings": plan.Update, "service/web": plan.Unchanged})
	reapply()
	compare("repaired", 1, all)
	// kubectl scale takes spec.replicas over.
	c.Kubectl(t, "-n", ns, "scale", "deployment/api", "--replicas=5")
	compare("scaled", 3, map[string]plan.Action{"deployment.apps/api": plan.Update})
	reapply()
	// Fields dropped from git: a data key, a label, an annotation, an env
	// entry, a container arg. Each is an update the proof must not hide.
	for _, e := range []struct{ file, from, to, ref string }{
		{"configmap.yaml", "  region: eu\n", "", "configmap/settings"},
		{"configmap.yaml", "labels: {team: shop, tier: web}", "labels: {team: shop}", "configmap/settings"},
		{"configmap.yaml", "  annotations: {owner: platform}\n", "", "configmap/settings"},
		{"deployment.yaml", `        - {name: B, value: "two"}` + "\n", "", "deployment.apps/api"},
		{"deployment.yaml", `args: [--port, "8080"]`, `args: [--port]`, "deployment.apps/api"},
		{"deployment.yaml", "          name: http\n", "", "deployment.apps/api"},
		{"deployment.yaml", "        ports:\n        - containerPort: 8080\n", "", "deployment.apps/api"},
		// Defaulted back to the same value: the server says unchanged.
		{"service.yaml", "    targetPort: 80\n", "", ""},
	} {
		edit(e.file, e.from, e.to)
		step := "dropped " + strings.TrimSpace(e.from) + " from " + e.file
		var want map[string]plan.Action
		if e.ref != "" {
			want = map[string]plan.Action{e.ref: plan.Update}
		}
		compare(step, 2, want)
		reapply()
		compare("applied without "+strings.TrimSpace(e.from), 1, all)
	}
}
