package deploytest

import (
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	"sigs.k8s.io/yaml"
)

// serveFlags are the flags of `kubeplan serve` (issue 18's fixed CLI); the
// bundle may use no other.
var serveFlags = []string{"--source", "--ref", "--path", "--project", "--all", "--interval", "--concurrency",
	"--listen", "--git-token-file", "--git-ssh-key-file", "--git-known-hosts-file", "--notify-webhook",
	"--notify-format", "--github-repository", "--github-token-file", "--kubeconfig", "--webhook-addr", "--webhook-secret-file"}

// serveMetrics are the metrics `kubeplan serve` exports.
var serveMetrics = []string{"kubeplan_last_run_timestamp_seconds", "kubeplan_run_duration_seconds",
	"kubeplan_runs_total", "kubeplan_run_result", "kubeplan_objects", "kubeplan_drift_detected",
	"kubeplan_revision_info", "kubeplan_last_success_timestamp_seconds", "kubeplan_pending_approvals", "kubeplan_change_window_closed",
	"kubeplan_source_failing", "kubeplan_source_failing_since_timestamp_seconds", "kubeplan_webhook_requests_total"}

// build runs kustomize on a directory of deploy/ and returns its objects.
func build(t *testing.T, dir string) []*unstructured.Unstructured {
	t.Helper()
	m, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), filepath.Join(repoRoot(t), dir))
	if err != nil {
		t.Fatalf("kustomize build %s: %v", dir, err)
	}
	var out []*unstructured.Unstructured
	for _, r := range m.Resources() {
		data, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		u := &unstructured.Unstructured{}
		if err := yaml.Unmarshal(data, &u.Object); err != nil {
			t.Fatal(err)
		}
		out = append(out, u)
	}
	return out
}

// TestBundleFitsServe checks the Deployment against what serve and the
// cache directory expect: only serve's flags, the probes and --listen on
// one port, the git token where --git-token-file reads it, the cache on a
// writable volume, and no cluster-wide RBAC anywhere.
func TestBundleFitsServe(t *testing.T) {
	for _, dir := range []string{"deploy/base", "deploy/overlays/example"} {
		t.Run(dir, func(t *testing.T) {
			var dep *appsv1.Deployment
			for _, u := range build(t, dir) {
				switch u.GetKind() {
				case "ClusterRole", "ClusterRoleBinding":
					t.Errorf("%s holds %s/%s: the bundle grants nothing cluster-wide", dir, u.GetKind(), u.GetName())
				case "Deployment":
					data, _ := yaml.Marshal(u.Object)
					dep = &appsv1.Deployment{}
					if err := yaml.UnmarshalStrict(data, dep); err != nil {
						t.Fatal(err)
					}
				}
			}
			if dep == nil {
				t.Fatalf("%s has no Deployment", dir)
			}
			c := dep.Spec.Template.Spec.Containers[0]
			if c.Image != "ghcr.io/kubeplan/kubeplan:v0.1.0" || len(c.Args) == 0 || c.Args[0] != "serve" {
				t.Fatalf("image %s args %v", c.Image, c.Args)
			}
			args := map[string]string{}
			for _, a := range c.Args[1:] {
				name, value, _ := strings.Cut(a, "=")
				if !slices.Contains(serveFlags, name) {
					t.Errorf("arg %q: not a flag of kubeplan serve", a)
				}
				args[name] = value
			}
			if args["--source"] == "" || (args["--project"] == "" && !hasKey(args, "--all")) {
				t.Errorf("args %v: want --source and --project or --all", c.Args)
			}
			if args["--listen"] != ":8080" || len(c.Ports) != 1 || c.Ports[0].ContainerPort != 8080 || c.Ports[0].Name != "http" {
				t.Errorf("--listen %q, ports %+v: want :8080 as port http", args["--listen"], c.Ports)
			}
			if p := c.LivenessProbe.HTTPGet; p.Path != "/healthz" || p.Port.String() != "http" {
				t.Errorf("liveness probe %+v", p)
			}
			if p := c.ReadinessProbe.HTTPGet; p.Path != "/readyz" || p.Port.String() != "http" {
				t.Errorf("readiness probe %+v", p)
			}
			mounts := map[string]string{}
			for _, m := range c.VolumeMounts {
				mounts[m.MountPath] = m.Name
			}
			if args["--git-token-file"] != "/var/run/secrets/kubeplan/git/token" || mounts["/var/run/secrets/kubeplan/git"] != "git-token" {
				t.Errorf("--git-token-file %q, mounts %v", args["--git-token-file"], mounts)
			}
			env := map[string]string{}
			for _, e := range c.Env {
				env[e.Name] = e.Value
			}
			volumes := map[string]bool{}
			for _, v := range dep.Spec.Template.Spec.Volumes {
				volumes[v.Name] = v.EmptyDir != nil
			}
			for _, dir := range []string{env["KUBEPLAN_CACHE_DIR"], env["HOME"]} {
				if name := mounts[dir]; dir == "" || !volumes[name] {
					t.Errorf("%q (KUBEPLAN_CACHE_DIR, HOME) is not an emptyDir mount: mounts %v", dir, mounts)
				}
			}
			sc := c.SecurityContext
			if sc == nil || sc.ReadOnlyRootFilesystem == nil || !*sc.ReadOnlyRootFilesystem || sc.RunAsUser == nil || *sc.RunAsUser != 65532 ||
				c.Resources.Requests.Cpu().IsZero() || c.Resources.Limits.Memory().IsZero() {
				t.Errorf("security context %+v, resources %+v", sc, c.Resources)
			}
		})
	}
}

func hasKey(m map[string]string, k string) bool { _, ok := m[k]; return ok }

// TestAlertsUseServeMetrics: every metric the alerts name is one serve exports.
func TestAlertsUseServeMetrics(t *testing.T) {
	metric := regexp.MustCompile(`\bkubeplan_[a-z_]+`)
	var exprs int
	for _, u := range build(t, "deploy/monitoring") {
		if u.GetKind() != "PrometheusRule" {
			continue
		}
		groups, _, _ := unstructured.NestedSlice(u.Object, "spec", "groups")
		for _, g := range groups {
			rules, _, _ := unstructured.NestedSlice(g.(map[string]any), "rules")
			for _, r := range rules {
				expr, _ := r.(map[string]any)["expr"].(string)
				exprs++
				for _, m := range metric.FindAllString(expr, -1) {
					if !slices.Contains(serveMetrics, m) {
						t.Errorf("alert expression %q names %s, which serve does not export", expr, m)
					}
				}
			}
		}
	}
	if exprs != 7 {
		t.Errorf("%d alert expressions, want 7", exprs)
	}
}
