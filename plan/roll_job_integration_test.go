package plan_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
)

// A Job's pod template cannot change in place: a changed ConfigMap it
// reads makes it a replace, which says why it rolls.
func TestIntegrationRollJob(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := narrow(t, c, ns)
	ctx := context.Background()
	opts := plan.Options{Namespace: ns, RollOnConfigChange: true}
	job := `apiVersion: batch/v1
kind: Job
metadata:
  name: migrate
spec:
  template:
    spec:
      restartPolicy: Never
      containers:
      - name: migrate
        image: busybox:1.36
        envFrom: [{configMapRef: {name: settings}}]
`
	files := rollFiles("eu", "hunter2")
	dir := writeSet(t, map[string]string{"job.yaml": job, "settings.yaml": files["settings.yaml"]})
	cl := client(t, kc, ns)
	p, err := plan.Make(ctx, cl, load(t, dir), opts)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := apply.Reconcile(ctx, cl, p, apply.Options{Version: "test"}); err != nil {
		t.Fatal(err)
	}
	dir = writeSet(t, map[string]string{"job.yaml": job, "settings.yaml": rollFiles("us", "")["settings.yaml"]})
	p, err = plan.Make(ctx, client(t, kc, ns), load(t, dir), opts)
	if err != nil {
		t.Fatal(err)
	}
	if j := find(p, "job.batch/migrate"); j == nil || j.Action != plan.Replace || strings.Join(j.RollsFor, ",") != "configmap/settings" {
		t.Errorf("the Job: %+v, want a replace rolling for configmap/settings", j)
	}
}
