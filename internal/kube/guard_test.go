package kube

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// A kubeconfig whose user runs a command: it would write the canary.
func execKubeconfig(canary string) string {
	return `apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {exec: {apiVersion: client.authentication.k8s.io/v1, command: sh, interactiveMode: Never, args: ["-c", "echo ran > ` + canary + `"]}}}]
contexts: [{name: c, context: {cluster: c, user: u}}]
current-context: c
`
}

func write(t *testing.T, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
	return path
}

func check(path string, checkouts ...string) error {
	f := Flags()
	f.KubeConfig = &path
	return CheckKubeconfigs(f, checkouts...)
}

// Inside a checkout, a kubeconfig that runs a command or reads a file is
// refused, and connecting with it never runs the command; outside, the
// same file is the runner's own and is used.
func TestCheckKubeconfigsInsideCheckout(t *testing.T) {
	dir := t.TempDir()
	repo, canary := filepath.Join(dir, "repo"), filepath.Join(dir, "canary")
	inside := write(t, filepath.Join(repo, "kube", "config"), execKubeconfig(canary))
	link := filepath.Join(dir, "runner.kubeconfig")
	if err := os.Symlink(inside, link); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{inside, link} {
		err := check(p, repo)
		if err == nil || !strings.Contains(err.Error(), "inside the checkout") || !strings.Contains(err.Error(), `user "u" has an exec plugin`) {
			t.Errorf("%s: err = %v", p, err)
		}
		f := Flags()
		f.KubeConfig = &p
		if c, err := Connect(f, repo); err == nil {
			_ = c.Ping(t.Context())
			t.Errorf("%s: Connect succeeded", p)
		}
	}
	if _, err := os.Stat(canary); err == nil {
		t.Fatal("the exec plugin ran")
	}
	outside := write(t, filepath.Join(dir, "runner", "config"), execKubeconfig(canary))
	if err := check(outside, repo); err != nil {
		t.Errorf("the runner's own kubeconfig: %v", err)
	}
	for name, user := range map[string]string{
		"tokenFile":      `{tokenFile: /etc/hostname}`,
		"auth-provider":  `{auth-provider: {name: oidc}}`,
		"client cert":    `{client-certificate: /etc/ssl/cert.pem, client-key: /etc/ssl/key.pem}`,
		"token embedded": `{token: abc}`,
	} {
		p := write(t, filepath.Join(repo, name+".yaml"), "clusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\"}}]\nusers: [{name: u, user: "+user+"}]\n")
		err := check(p, repo)
		if name == "token embedded" {
			if err != nil {
				t.Errorf("%s: %v", name, err)
			}
			continue
		}
		if err == nil || !strings.Contains(err.Error(), "inside the checkout") {
			t.Errorf("%s: err = %v", name, err)
		}
	}
	ca := write(t, filepath.Join(repo, "ca.yaml"), "clusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\", certificate-authority: ca.crt}}]\n")
	if err := check(ca, repo); err == nil || !strings.Contains(err.Error(), "certificate-authority") {
		t.Errorf("certificate-authority: %v", err)
	}
}

// The runner's kubeconfig may not name a file inside the checkout.
func TestCheckKubeconfigsRefsIntoCheckout(t *testing.T) {
	dir := t.TempDir()
	repo := filepath.Join(dir, "repo")
	write(t, filepath.Join(repo, "token"), "from-the-pr")
	p := write(t, filepath.Join(dir, "kc"), "users: [{name: u, user: {tokenFile: repo/token}}]\n")
	if err := check(p, repo); err == nil || !strings.Contains(err.Error(), `user "u" tokenFile names `+filepath.Join(repo, "token")) {
		t.Errorf("tokenFile into the checkout: %v", err)
	}
	if err := check(p); err != nil {
		t.Errorf("no checkout: %v", err)
	}
}

// Devices, FIFOs, directories and oversized files are refused without
// being read.
func TestCheckKubeconfigsFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	big := filepath.Join(dir, "big")
	if err := os.WriteFile(big, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(big, MaxKubeconfigSize+1); err != nil {
		t.Fatal(err)
	}
	for p, want := range map[string]string{
		"/dev/zero":                   "is not a regular file",
		fifo:                          "is not a regular file", // opening it would block for ever
		dir:                           "is not a regular file",
		big:                           "more than a kubeconfig's",
		filepath.Join(dir, "missing"): "no such file",
	} {
		if err := check(p); err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v, want %s", p, err, want)
		}
	}
	// a missing file of $KUBECONFIG is skipped, as client-go skips it;
	// /dev/zero there is refused.
	t.Setenv("KUBECONFIG", filepath.Join(dir, "missing")+string(os.PathListSeparator)+"/dev/zero")
	if err := CheckKubeconfigs(Flags()); err == nil || !strings.Contains(err.Error(), "/dev/zero is not a regular file") {
		t.Errorf("$KUBECONFIG: %v", err)
	}
}

// A kubeconfig git tracks in the checkout is a repository file: refused
// whatever it holds; the same content untracked is the runner's.
func TestCheckKubeconfigsTracked(t *testing.T) {
	repo := t.TempDir()
	run := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = repo
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	run("init", "-q")
	content := "clusters: [{name: c, cluster: {server: \"https://127.0.0.1:1\"}}]\nusers: [{name: u, user: {token: t}}]\n"
	tracked := write(t, filepath.Join(repo, "sub", "tracked.kubeconfig"), content)
	untracked := write(t, filepath.Join(repo, "sub", "untracked.kubeconfig"), content)
	run("add", "sub/tracked.kubeconfig")
	for _, root := range []string{repo, filepath.Join(repo, "sub")} {
		if err := check(tracked, root); err == nil || !strings.Contains(err.Error(), "git tracks it") {
			t.Errorf("tracked, checkout %s: %v", root, err)
		}
		if err := check(untracked, root); err != nil {
			t.Errorf("untracked, checkout %s: %v", root, err)
		}
	}
}
