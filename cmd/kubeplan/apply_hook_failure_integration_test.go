package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// hookFailCanary is the Secret value of testdata/charts/hookfail
// (values.yaml: db.password), which its failing hook prints.
const hookFailCanary = "hookfail-canary-5d1e"

// A chart whose pre-install hook Job fails (testdata/charts/hookfail: a
// migration Job as in the Helm docs' hook example, its image the
// testcluster's tag crashloop, which prints its args, one of them the
// chart's Secret-backed password, and exits 1) fails the apply as the
// narrow edit identity within 30 s, well before --timeout: the output
// names the hook and its template in the chart, the pod, the container,
// the reason, the log tail with the Secret's value masked, and the
// events; the chart's other objects are not written. Both shapes real
// charts use: restartPolicy Never with backoffLimit 0 (the pod fails
// once) and OnFailure with the default backoffLimit (the container crash
// loops in its pod).
func TestIntegrationApplyHookFailure(t *testing.T) {
	testkube.Integration(t)
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	c := testkube.Shared(t)
	for _, tc := range []struct {
		name string
		// values replaces the migrate Job's restart policy and back-off
		// limit in values.yaml (nil keeps them).
		values *strings.Replacer
		// args are apply's flags; the run fails within 30 s unless
		// wait is set (it then takes about wait).
		args []string
		wait time.Duration
		want []string
	}{
		{"Never", nil, nil, 0, []string{
			"  container migrate: Error\n",
			"    pod release-name-migrate-",
			", exit code 1\n",
			"    log (last 2 lines):\n      | migrating with password ***\n      | fatal: relation users does not exist\n",
		}},
		{"OnFailure", strings.NewReplacer("restartPolicy: Never", "restartPolicy: OnFailure", "backoffLimit: 0", "backoffLimit: 6"), nil, 0, []string{
			"  container migrate: CrashLoopBackOff: back-off 10s restarting failed container=migrate pod=release-name-migrate-",
			"restart, exit code 1\n",
			"    log (last 2 lines, previous instance):\n      | migrating with password ***\n      | fatal: relation users does not exist\n",
			"  events:\n    Pod/release-name-migrate-",
			" BackOff: Back-off restarting failed container migrate in pod release-name-migrate-",
		}},
		// --fail-fast=false: the hook is waited for until --timeout, as
		// before, and then diagnosed.
		{"NoFailFast", strings.NewReplacer("restartPolicy: Never", "restartPolicy: OnFailure", "backoffLimit: 0", "backoffLimit: 6"),
			[]string{"--fail-fast=false", "--timeout", "20s"}, 20 * time.Second, []string{
				"  container migrate: CrashLoopBackOff: back-off ",
				"    log (last 2 lines, previous instance):\n      | migrating with password ***\n",
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ns := c.Namespace(t)
			kc := c.Narrow(t, "hookfail", ns)
			chart := filepath.Join(t.TempDir(), "hookfail")
			if err := os.CopyFS(chart, os.DirFS(filepath.Join("..", "..", "testdata", "charts", "hookfail"))); err != nil {
				t.Fatal(err)
			}
			if tc.values != nil {
				values := filepath.Join(chart, "values.yaml")
				body, err := os.ReadFile(values)
				if err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(values, []byte(tc.values.Replace(string(body))), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			start := time.Now()
			args := append([]string{"apply", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/hookfail", "--timeout", "5m"}, tc.args...)
			code, stdout, stderr := cli(append(args, chart)...)
			took := time.Since(start)
			if code != 1 || took > tc.wait+30*time.Second || took < tc.wait {
				t.Fatalf("exit %d after %s (want 1 after %s at least, within 30 s more)\nstdout:\n%s\nstderr:\n%s", code, took, tc.wait, stdout, stderr)
			}
			if tc.wait > 0 && !strings.Contains(stderr, "timed out") {
				t.Errorf("stderr does not say the wait timed out:\n%s", stderr)
			}
			t.Logf("failed after %s\n%s", took.Round(time.Second), stdout)
			for _, want := range append([]string{
				"job.batch/release-name-migrate created\n  at " + filepath.Join(chart, "templates", "migrate-job.yaml") + ":1:1\n",
			}, tc.want...) {
				if !strings.Contains(stdout, want) {
					t.Errorf("stdout lacks %q:\n%s", want, stdout)
				}
			}
			if !strings.Contains(stderr, "pre-install,pre-upgrade hook job.batch/release-name-migrate did not succeed, the run stops here") {
				t.Errorf("stderr does not name the hook:\n%s", stderr)
			}
			if strings.Contains(stdout+stderr, hookFailCanary) {
				t.Errorf("the Secret's value was printed:\nstdout:\n%s\nstderr:\n%s", stdout, stderr)
			}
			// The run stopped at the hook: the chart's Deployment was not
			// written.
			if strings.Contains(stdout, "deployment.apps/release-name-web") {
				t.Errorf("the Deployment was applied after the failed hook:\n%s", stdout)
			}
			if out := c.Kubectl(t, "-n", ns, "get", "deployments", "-o", "name"); strings.TrimSpace(out) != "" {
				t.Errorf("deployments in the namespace: %q", out)
			}
		})
	}
}
