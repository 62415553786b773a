package plan_test

import (
	"context"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
)

// A create's diff is the manifest as written (plus the ApplySet label the
// plan adds), not the server's version with its defaults and placeholder
// clusterIP; ShowDefaults brings those back.
func TestIntegrationCreateDiffAsWritten(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	ctx := context.Background()
	dir := writeSet(t, map[string]string{"service.yaml": seedService})
	as := applyset.Parent{Kind: "ConfigMap", Name: "gitops-applyset", Namespace: ns}
	opts := plan.Options{Namespace: ns, ApplySet: &as}

	p, err := plan.Make(ctx, client(t, c.AdminKubeconfig(), ns), load(t, dir), opts)
	if err != nil {
		t.Fatal(err)
	}
	svc := find(p, "service/web")
	if svc == nil || svc.Action != plan.Create {
		t.Fatalf("service: %+v", svc)
	}
	for _, absent := range []string{"clusterIP", "sessionAffinity", "ipFamilies", "protocol: TCP", "type: ClusterIP"} {
		if strings.Contains(svc.Diff, absent) {
			t.Errorf("create diff shows the server's %s:\n%s", absent, svc.Diff)
		}
	}
	for _, present := range []string{"+    applyset.kubernetes.io/part-of: " + as.ID(), "+  - port: 80", "+    targetPort: 80", "+  namespace: " + ns} {
		if !strings.Contains(svc.Diff, present) {
			t.Errorf("create diff lacks %q:\n%s", present, svc.Diff)
		}
	}

	opts.ShowDefaults = true
	p, err = plan.Make(ctx, client(t, c.AdminKubeconfig(), ns), load(t, dir), opts)
	if err != nil {
		t.Fatal(err)
	}
	svc = find(p, "service/web")
	for _, present := range []string{"+  clusterIP: ", "+  sessionAffinity: None", "+    protocol: TCP"} {
		if svc == nil || !strings.Contains(svc.Diff, present) {
			t.Errorf("ShowDefaults create diff lacks %q:\n%+v", present, svc)
		}
	}
}
