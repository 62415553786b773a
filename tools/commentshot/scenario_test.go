package main

import (
	"encoding/base64"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// TestMain removes the kubeplan binary testkube.Kubeplan builds.
func TestMain(m *testing.M) { testkube.Main(m) }

// TestIntegrationScenario plans the picture's scenario on a real cluster
// and checks the comment has what the picture is meant to show: adds,
// changes, the drift, the prune, and a Secret whose values are masked.
func TestIntegrationScenario(t *testing.T) {
	testkube.Integration(t)
	if _, err := testkube.Binary(); err != nil {
		testkube.SkipUnlessCI(t, err.Error())
	}
	md, err := planOnCluster(testkube.Kubeplan(t))
	if err != nil {
		t.Fatal(err)
	}
	s := string(md)
	for _, want := range []string{
		"**Plan: 2 to add, 2 to change, 1 to prune, 6 unchanged.**",
		"| ➕ create | `cronjob.batch/nightly-report` |",
		"| `deployment.apps/web` | `spec.replicas` | `6` | `3` | kubectl |",
		"- `configmap/legacy-flags`\n",
		"| 🔄 update, ⚠️ drift | `deployment.apps/web` |",
		"-  DB_PASSWORD: '*** (before)'\n+  DB_PASSWORD: '*** (after)'\n",
		"+        image: ghcr.io/acme/web:1.5.0\n",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the plan lacks %q:\n%s", want, s)
		}
	}
	for _, secret := range []string{"correct-horse-battery-staple", "tr0ub4dor-and-3"} {
		if strings.Contains(s, secret) || strings.Contains(s, base64.StdEncoding.EncodeToString([]byte(secret))) {
			t.Errorf("the plan shows the Secret value %q", secret)
		}
	}
}
