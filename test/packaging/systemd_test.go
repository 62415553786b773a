package packaging

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

const (
	serviceUnit = "kubeplan-reconcile.service"
	timerUnit   = "kubeplan-reconcile.timer"
)

// unitFile is a systemd unit: section -> key -> values (keys may repeat).
type unitFile map[string]map[string][]string

// readUnit parses a unit file: [Section] headers, Key=Value lines,
// comments (# ;) and lines continued with a trailing backslash.
func readUnit(t *testing.T, path string) unitFile {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	u := unitFile{}
	section := ""
	s := bufio.NewScanner(f)
	var cont string
	for s.Scan() {
		l := strings.TrimSpace(s.Text())
		if cont == "" && (l == "" || l[0] == '#' || l[0] == ';') {
			continue
		}
		if strings.HasSuffix(l, `\`) {
			cont += strings.TrimSuffix(l, `\`) + " "
			continue
		}
		l, cont = cont+l, ""
		if strings.HasPrefix(l, "[") && strings.HasSuffix(l, "]") {
			section = l[1 : len(l)-1]
			u[section] = map[string][]string{}
			continue
		}
		k, v, ok := strings.Cut(l, "=")
		if !ok || section == "" {
			t.Fatalf("%s: cannot read %q", path, l)
		}
		u[section][strings.TrimSpace(k)] = append(u[section][strings.TrimSpace(k)], strings.TrimSpace(v))
	}
	if err := s.Err(); err != nil {
		t.Fatal(err)
	}
	return u
}

func (u unitFile) one(section, key string) string {
	if v := u[section][key]; len(v) > 0 {
		return v[len(v)-1]
	}
	return ""
}

// unitsWithBinary copies the example units to a temp dir with ExecStart's
// /usr/local/bin/kubeplan replaced by the kubeplan the action builds.
func unitsWithBinary(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{serviceUnit, timerUnit} {
		b, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "systemd", name))
		if err != nil {
			t.Fatal(err)
		}
		s := strings.ReplaceAll(string(b), "/usr/local/bin/kubeplan", kubeplanBinary(t))
		if err := os.WriteFile(filepath.Join(dir, name), []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSystemdUnits: systemd-analyze accepts the service and the timer
// without a warning, rates the service's sandbox OK, and the units say what
// docs/apply.md promises.
func TestSystemdUnits(t *testing.T) {
	sa := lookPath(t, "systemd-analyze", "systemd")
	dir := unitsWithBinary(t)
	cmd := exec.Command(sa, "verify", "--man=no", serviceUnit, timerUnit)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil || len(out) > 0 {
		t.Errorf("systemd-analyze verify: %v\n%s", err, out)
	}
	// Exposure 0.0 (sandboxed) to 10.0 (not at all); --threshold is in tenths.
	cmd = exec.Command(sa, "security", "--offline=yes", "--threshold=20", serviceUnit)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Errorf("systemd-analyze security: exposure above 2.0 (%v)\n%s", err, out)
	}

	svc := readUnit(t, filepath.Join(repoRoot(t), "examples", "systemd", serviceUnit))
	for key, want := range map[string]string{
		"Type": "oneshot", "DynamicUser": "yes", "NoNewPrivileges": "yes", "ProtectSystem": "strict",
		"CacheDirectory": "kubeplan", "LoadCredential": "kubeconfig:/etc/kubeplan/kubeconfig",
	} {
		if got := svc.one("Service", key); got != want {
			t.Errorf("%s: %s=%q, want %q", serviceUnit, key, got, want)
		}
	}
	env := svc["Service"]["Environment"]
	for _, want := range []string{"KUBECONFIG=%d/kubeconfig", "KUBEPLAN_CACHE_DIR=%C"} {
		if !slices.Contains(env, want) {
			t.Errorf("%s: no Environment=%s (has %q)", serviceUnit, want, env)
		}
	}
	timer := readUnit(t, filepath.Join(repoRoot(t), "examples", "systemd", timerUnit))
	if timer.one("Timer", "OnUnitInactiveSec") != "30s" || timer.one("Timer", "OnBootSec") == "" || timer.one("Install", "WantedBy") != "timers.target" {
		t.Errorf("%s: want OnBootSec, OnUnitInactiveSec=30s and WantedBy=timers.target: %v", timerUnit, timer)
	}
}

// TestIntegrationSystemdReconcile runs the service's ExecStart= the way
// systemd would (the kubeconfig credential in %d, the cache directory in
// %C), twice, as two ticks of the timer, with the git source replaced by a
// real bare repository and the namespace by a fresh one of testcluster.
func TestIntegrationSystemdReconcile(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "gitops", ns)

	svc := readUnit(t, filepath.Join(repoRoot(t), "examples", "systemd", serviceUnit))
	argv := strings.Fields(svc.one("Service", "ExecStart"))
	if len(argv) < 2 || argv[0] != "/usr/local/bin/kubeplan" || argv[1] != "apply" {
		t.Fatalf("ExecStart=%q, want /usr/local/bin/kubeplan apply ...", argv)
	}
	if slices.Contains(argv, "--interval") {
		t.Fatalf("ExecStart has --interval; the timer does the repeating")
	}

	// The repository, as a bare repository with main.
	work := t.TempDir()
	bare := filepath.Join(work, "shop.git")
	clone := filepath.Join(work, "clone")
	gitIn(t, work, "init", "-q", "--bare", "-b", "main", bare)
	gitIn(t, work, "clone", "-q", bare, clone)
	if err := os.MkdirAll(filepath.Join(clone, "manifests"), 0o755); err != nil {
		t.Fatal(err)
	}
	deploy := strings.Replace(goodDeployment, "  namespace: store\n", "", 1)
	if err := os.WriteFile(filepath.Join(clone, "manifests", "deployment.yaml"), []byte(deploy), 0o644); err != nil {
		t.Fatal(err)
	}
	gitIn(t, clone, "add", "-A")
	gitIn(t, clone, "commit", "-q", "-m", "seed")
	gitIn(t, clone, "push", "-q", "origin", "HEAD:main")
	sha := gitIn(t, clone, "rev-parse", "--short=7", "HEAD")

	args := slices.Clone(argv[1:])
	for i := range args {
		switch {
		case i > 0 && args[i-1] == "--source":
			args[i] = bare
		case i > 0 && args[i-1] == "-n":
			args[i] = ns
		}
	}
	// What systemd sets up: the credential, the cache directory, the
	// Environment= lines with %d and %C expanded.
	creds, cache := t.TempDir(), t.TempDir()
	b, err := os.ReadFile(kc)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(creds, "kubeconfig"), b, 0o400); err != nil {
		t.Fatal(err)
	}
	env := []string{"PATH=" + os.Getenv("PATH"), "CREDENTIALS_DIRECTORY=" + creds, "CACHE_DIRECTORY=" + filepath.Join(cache, "kubeplan")}
	for _, e := range svc["Service"]["Environment"] {
		env = append(env, strings.NewReplacer("%d", creds, "%C", cache).Replace(e))
	}
	for tick, want := range []string{"Apply: 1 created, 0 configured, 0 pruned, 0 unchanged.", "Apply: 0 created, 0 configured, 0 pruned, 1 unchanged."} {
		cmd := exec.Command(kubeplanBinary(t), args...)
		cmd.Env = env
		cmd.Dir = t.TempDir() // systemd runs it in /
		var out, errb strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil || !strings.Contains(out.String(), want) || !strings.HasSuffix(out.String(), "in sync with "+sha+" seed\n") {
			t.Fatalf("run %d of %q: %v\nstdout:\n%s\nstderr:\n%s", tick+1, args, err, out.String(), errb.String())
		}
	}
	if _, err := os.Stat(filepath.Join(cache, "kubeplan", "git")); err != nil {
		t.Errorf("the clone is not kept in the CacheDirectory: %v", err)
	}
	if got := c.Kubectl(t, "-n", ns, "get", "deployment", "web", "-o", "jsonpath={.spec.replicas}"); got != "3" {
		t.Errorf("deployment web replicas %q, want 3", got)
	}
}
