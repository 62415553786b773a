package packaging

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// gitIn runs git in dir and fails t when it fails.
func gitIn(t *testing.T, dir string, args ...string) string {
	t.Helper()
	cmd := exec.Command("git", append([]string{"-c", "user.name=dev", "-c", "user.email=dev@example.com", "-c", "init.defaultBranch=main"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("git %v in %s: %v\n%s", args, dir, err, out)
	}
	return strings.TrimSpace(string(out))
}

// snapshotRepo commits the working tree of the repository (tracked and
// untracked files git does not ignore, as they are now) to a new git
// repository and returns its path and commit: the hook repository
// pre-commit clones, so the test runs the hook of this tree, committed or not.
func snapshotRepo(t *testing.T) (dir, sha string) {
	t.Helper()
	root := repoRoot(t)
	dir = t.TempDir()
	files := gitIn(t, root, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
	for _, f := range strings.Split(files, "\x00") {
		if f == "" {
			continue
		}
		b, err := os.ReadFile(filepath.Join(root, f))
		if os.IsNotExist(err) {
			continue // deleted in the working tree
		}
		if err != nil {
			t.Fatal(err)
		}
		fi, err := os.Stat(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		p := filepath.Join(dir, f)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, b, fi.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
	gitIn(t, dir, "init", "-q")
	gitIn(t, dir, "add", "-A")
	gitIn(t, dir, "commit", "-q", "-m", "snapshot")
	return dir, gitIn(t, dir, "rev-parse", "HEAD")
}

// goEnv returns `go env NAME`.
func goEnv(t *testing.T, name string) string {
	t.Helper()
	out, err := exec.Command("go", "env", name).Output()
	if err != nil {
		t.Fatalf("go env %s: %v", name, err)
	}
	return strings.TrimSpace(string(out))
}

// TestPreCommitHook installs and runs the kubeplan-lint hook with Debian's
// pre-commit on a throwaway repository, configured by
// examples/pre-commit-config.yaml with only repo: and rev: pointing at a
// snapshot of this repository: a bad manifest fails the commit with
// file:line:col, the fixed one passes.
func TestPreCommitHook(t *testing.T) {
	preCommit := lookPath(t, "pre-commit", "pre-commit")
	example, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "pre-commit-config.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	hookRepo, sha := snapshotRepo(t)
	config := string(example)
	for _, l := range []struct{ old, new string }{
		{"repo: https://github.com/kubeplan/kubeplan\n", "repo: " + hookRepo + "\n"},
		{"rev: v1.0.0\n", "rev: " + sha + "\n"},
	} {
		if strings.Count(config, l.old) != 1 {
			t.Fatalf("examples/pre-commit-config.yaml has no line %q: update this test", strings.TrimSpace(l.old))
		}
		config = strings.Replace(config, l.old, l.new, 1)
	}

	proj := t.TempDir()
	gitIn(t, proj, "init", "-q")
	write := func(name, body string) {
		t.Helper()
		p := filepath.Join(proj, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write(".pre-commit-config.yaml", config)
	write("manifests/deployment.yaml", badDeployment)
	write("manifests/service.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n  name: web\n  namespace: store\nspec:\n  selector: {app: web}\n  ports:\n  - port: 80\n")
	write(".github/workflows/ci.yml", "on: push\njobs: {}\n") // not a manifest: not reported
	gitIn(t, proj, "add", "-A")

	home := t.TempDir()
	env := append(baseEnv(),
		"HOME="+home, "PRE_COMMIT_HOME="+filepath.Join(home, "pre-commit"), "XDG_CACHE_HOME="+filepath.Join(home, "cache"),
		// pre-commit builds the hook with `go install ./...` in a GOPATH of
		// its own; the module and build caches of this machine keep that
		// from downloading or compiling everything again.
		"GOMODCACHE="+goEnv(t, "GOMODCACHE"), "GOCACHE="+goEnv(t, "GOCACHE"), "GOTOOLCHAIN=local",
		"NO_COLOR=1")
	// run runs the hook on every file, or on the files named (as a commit
	// of only those would).
	run := func(files ...string) (int, string) {
		t.Helper()
		args := []string{"run", "--all-files", "--color=never"}
		if len(files) > 0 {
			args = append([]string{"run", "--color=never", "--files"}, files...)
		}
		cmd := exec.Command(preCommit, args...)
		cmd.Dir, cmd.Env = proj, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			if ee, ok := err.(*exec.ExitError); ok {
				return ee.ExitCode(), string(out)
			}
			t.Fatalf("pre-commit: %v\n%s", err, out)
		}
		return 0, string(out)
	}

	code, out := run()
	want := "manifests/deployment.yaml:7:13: error schema: spec.replicas must be an integer, not the string \"three\" (deployment.apps/web in store)"
	if code != 1 || !strings.Contains(out, want) || !strings.Contains(out, "kubeplan lint") || !strings.Contains(out, "Failed") {
		t.Fatalf("bad manifest: pre-commit exit %d, want 1 and %q\n%s", code, want, out)
	}
	if strings.Contains(out, "service.yaml:") || strings.Contains(out, "ci.yml") {
		t.Errorf("findings for files that are fine:\n%s", out)
	}

	write("manifests/deployment.yaml", goodDeployment)
	gitIn(t, proj, "add", "-A")
	if code, out := run(); code != 0 || !strings.Contains(out, "Passed") {
		t.Errorf("fixed manifest: pre-commit exit %d, want 0\n%s", code, out)
	}

	// A kustomize base and an overlay whose patch sets replicas: the patch
	// and the kustomization files are linted by building the overlay that
	// reads them, never as manifests of their own (a patch alone lacks the
	// selector and template a Deployment needs).
	write("apps/web/base/kustomization.yaml", "resources: [deployment.yaml]\n")
	write("apps/web/base/deployment.yaml", strings.Replace(goodDeployment, "  namespace: store\n", "", 1))
	write("apps/web/overlays/prod/kustomization.yaml", "namespace: store\nresources: [../../base]\npatches:\n- path: replicas.yaml\n")
	write("apps/web/overlays/prod/replicas.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 4\n")
	gitIn(t, proj, "add", "-A")
	if code, out := run(); code != 0 || !strings.Contains(out, "Passed") {
		t.Errorf("kustomize tree: pre-commit exit %d, want 0 (a patch is not a manifest)\n%s", code, out)
	}
	write("apps/web/overlays/prod/replicas.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: \"4\"\n")
	gitIn(t, proj, "add", "-A")
	if code, out := run(); code != 1 || !strings.Contains(out, "apps/web/overlays/prod/replicas.yaml:6:13: error schema: spec.replicas must be an integer, not the string \"4\"") {
		t.Errorf("a bad value in the overlay's patch: pre-commit exit %d, want 1 with the finding\n%s", code, out)
	}
	write("apps/web/overlays/prod/replicas.yaml", "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  replicas: 4\n")

	// A chart that kubeplan.yaml declares with a production values file: a
	// commit of that file alone lints the project that reads it, rendered
	// with its values and checked against the chart's values.schema.json.
	write("kubeplan.yaml", "projects:\n  - path: apps/web/overlays/*\n  - name: shop-prod\n    path: charts/shop\n    namespace: shop-prod\n    helm:\n      values: [charts/shop/values-prod.yaml]\n")
	write("charts/shop/Chart.yaml", "apiVersion: v2\nname: shop\nversion: 1.0.0\n")
	write("charts/shop/values.yaml", "replicaCount: 1\n")
	write("charts/shop/values.schema.json", `{"type": "object", "properties": {"replicaCount": {"type": "integer", "minimum": 1}}}`)
	write("charts/shop/templates/_helpers.tpl", "{{- define \"shop.name\" -}}{{ .Release.Name }}-shop{{- end -}}\n")
	write("charts/shop/templates/configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: {{ include \"shop.name\" . }}\ndata:\n  replicas: {{ .Values.replicaCount | quote }}\n")
	write("charts/shop/values-prod.yaml", "replicaCount: three\n")
	gitIn(t, proj, "add", "-A")
	want = "charts/shop/values-prod.yaml:1:1: error helm-values-schema: values key replicaCount: got string, want integer (values.schema.json of chart shop)"
	for _, files := range [][]string{{"charts/shop/values-prod.yaml"}, {"charts/shop/templates/_helpers.tpl"}, nil} {
		if code, out := run(files...); code != 1 || !strings.Contains(out, want) {
			t.Errorf("a declared values file that violates the schema, hook run on %q: pre-commit exit %d, want 1 with %q\n%s", files, code, want, out)
		}
	}
	write("charts/shop/values-prod.yaml", "replicaCount: 3\n")
	gitIn(t, proj, "add", "-A")
	if code, out := run("charts/shop/values-prod.yaml"); code != 0 || !strings.Contains(out, "Passed") {
		t.Errorf("fixed values file: pre-commit exit %d, want 0\n%s", code, out)
	}
}
