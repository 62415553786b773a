package plan_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/plan"
)

// psaDeployment is a Deployment whose pod template breaks the restricted
// level (no securityContext), and also baseline when privileged.
func psaDeployment(privileged bool) string {
	sc := ""
	if privileged {
		sc = "\n          securityContext: {privileged: true}"
	}
	return `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers:
        - name: web
          image: nginx:1.27` + sc + "\n"
}

// The API server's Pod Security warnings are recorded on the change; a
// workload whose pods the namespace's enforce level refuses is an error
// naming that level, read live or from the Namespace in the set.
func TestIntegrationPlanPodSecurityWarnings(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ctx := context.Background()
	for _, tc := range []struct {
		name       string
		live       []string // the namespace's labels, key=value
		inSet      string   // a Namespace object's labels in the set, YAML flow map
		privileged bool
		warning    string // in the change's APIWarnings; "" for none
		refused    string // in the error; "" when the plan is made
	}{
		{name: "warn only", live: []string{"pod-security.kubernetes.io/warn=restricted"},
			warning: `would violate PodSecurity "restricted:latest": allowPrivilegeEscalation != false`},
		{name: "enforced", live: []string{"pod-security.kubernetes.io/enforce=restricted"},
			refused: `enforces Pod Security "restricted:latest" (pod-security.kubernetes.io/enforce=restricted on the live Namespace)`},
		{name: "enforce baseline, warn restricted", live: []string{"pod-security.kubernetes.io/enforce=baseline", "pod-security.kubernetes.io/warn=restricted"},
			warning: `would violate PodSecurity "restricted:latest"`},
		{name: "enforce restricted, warn baseline, privileged", live: []string{"pod-security.kubernetes.io/enforce=restricted", "pod-security.kubernetes.io/warn=baseline"}, privileged: true,
			refused: `its pods would violate PodSecurity "baseline:latest": privileged`},
		{name: "older enforce version", live: []string{"pod-security.kubernetes.io/enforce=restricted", "pod-security.kubernetes.io/enforce-version=v1.30", "pod-security.kubernetes.io/warn=restricted"},
			warning: `would violate PodSecurity "restricted:latest"`},
		{name: "enforced by the Namespace in the set", live: []string{"pod-security.kubernetes.io/warn=restricted"},
			inSet:   `{pod-security.kubernetes.io/warn: restricted, pod-security.kubernetes.io/enforce: restricted}`,
			refused: `(pod-security.kubernetes.io/enforce=restricted on the Namespace in the set)`},
		{name: "none", warning: ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ns := c.Namespace(t)
			if len(tc.live) > 0 {
				c.Kubectl(t, append([]string{"label", "namespace", ns}, tc.live...)...)
			}
			files := map[string]string{"web.yaml": psaDeployment(tc.privileged)}
			if tc.inSet != "" {
				files["ns.yaml"] = "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: " + ns + "\n  labels: " + tc.inSet + "\n"
			}
			p, err := plan.Make(ctx, client(t, c.AdminKubeconfig(), ns), load(t, writeSet(t, files)), plan.Options{Namespace: ns})
			if tc.refused != "" {
				var es plan.Errors
				var pse *plan.PodSecurityError
				if !errors.As(err, &es) || len(es) != 1 || !errors.As(es[0], &pse) || !strings.Contains(err.Error(), tc.refused) {
					t.Fatalf("plan: %v; want a PodSecurityError with %q", err, tc.refused)
				}
				if n := strings.Count(err.Error(), "would violate"); n != 1 {
					t.Errorf("the warning is in the error %d times, want once: %v", n, err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			web := find(p, "deployment.apps/web")
			if web == nil {
				t.Fatalf("no change for the Deployment: %+v", p.Changes)
			}
			got := strings.Join(web.APIWarnings, "\n")
			switch {
			case tc.warning == "" && got != "":
				t.Errorf("warnings %q, want none", got)
			case !strings.Contains(got, tc.warning) || len(web.APIWarnings) != 1 && tc.warning != "":
				t.Errorf("warnings %q, want one with %q", web.APIWarnings, tc.warning)
			}
		})
	}
}
