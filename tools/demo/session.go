package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// The names the stories use for the identity and the cluster directory.
const (
	reconciler = "gitops-reconciler"
	clusterDir = "cluster" // in the work directory
)

// session is one run of the demo: a work directory, the cluster started in
// it, and what the steps remember between them.
type session struct {
	p        *printer
	work     string // the work directory, removed by close
	dir      string // where the next command runs
	bins     map[string]string
	env      []string // every command's environment, without KUBECONFIG
	cluster  *testkube.Cluster
	admin    *kube.Client // for the checks
	mem      map[string]string
	progress io.Writer // where the session says what it does to the machine (stderr)
}

// newSession makes the work directory and the environment of the commands:
// no GitHub Actions variables (kubeplan would answer in their format), no
// KUBECONFIG or git settings from the user, caches inside the work directory.
func newSession(p *printer, progress io.Writer, kubeplanBin, testclusterBin string) (*session, error) {
	work, err := os.MkdirTemp("", "kubeplan-demo-")
	if err != nil {
		return nil, err
	}
	s := &session{p: p, work: work, dir: work, progress: progress, mem: map[string]string{},
		bins: map[string]string{"kubeplan": kubeplanBin, "testcluster": testclusterBin}}
	fmt.Fprintf(progress, "demo: work directory %s (removed at the end)\n", work)
	gitconfig := filepath.Join(work, "gitconfig")
	if err := os.WriteFile(gitconfig, []byte("[user]\n\tname = Dev\n\temail = dev@example.com\n[init]\n\tdefaultBranch = main\n[advice]\n\tdetachedHead = false\n"), 0o644); err != nil {
		s.close()
		return nil, err
	}
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if name == "KUBECONFIG" || strings.HasPrefix(name, "GITHUB_") || strings.HasPrefix(name, "KUBEPLAN_") || strings.HasPrefix(name, "GIT_") {
			continue
		}
		s.env = append(s.env, kv)
	}
	s.env = append(s.env,
		"KUBEPLAN_CACHE_DIR="+filepath.Join(work, "cache"),
		"KUBECACHEDIR="+filepath.Join(work, "cache", "kubectl"),
		"GIT_CONFIG_GLOBAL="+gitconfig, "GIT_CONFIG_NOSYSTEM=1",
		"GIT_TERMINAL_PROMPT=0")
	return s, nil
}

func (s *session) kubeconfig(user string) string {
	return filepath.Join(s.work, clusterDir, user+".kubeconfig")
}

// startCluster starts bin/testcluster in the work directory.
func (s *session) startCluster() error {
	s.p.command("testcluster start --dir " + clusterDir + " &")
	c, err := testkube.LaunchIn(s.bins["testcluster"], filepath.Join(s.work, clusterDir))
	if err != nil {
		return err
	}
	s.cluster = c
	fmt.Fprintf(s.progress, "demo: testcluster running, pid %d\n", c.PID())
	s.p.output("ready " + filepath.Join(clusterDir, "admin.kubeconfig") + "\n")
	s.admin, err = kube.NewFromKubeconfig(c.AdminKubeconfig(), "")
	return err
}

// close stops the cluster and removes the work directory.
func (s *session) close() error {
	var errs []error
	if s.cluster != nil {
		if err := s.cluster.Stop(); err != nil {
			errs = append(errs, err)
		}
	}
	if err := os.RemoveAll(s.work); err != nil {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// exec runs a command line in the current directory, printing its output
// as it comes, and returns its exit status and output (stdout and stderr
// interleaved). kubeplan runs as the reconciler, kubectl as the admin.
func (s *session) exec(ctx context.Context, line string) (int, string, error) {
	words, err := splitWords(line)
	if err != nil || len(words) == 0 {
		return 0, "", fmt.Errorf("bad command line %q: %v", line, err)
	}
	name := words[0]
	if p, ok := s.bins[name]; ok {
		name = p
	}
	cmd := exec.CommandContext(ctx, name, words[1:]...)
	cmd.Dir = s.dir
	cmd.Env = s.env
	switch words[0] {
	case "kubeplan":
		cmd.Env = append(cmd.Env, "KUBECONFIG="+s.kubeconfig(reconciler))
	case "kubectl":
		cmd.Env = append(cmd.Env, "KUBECONFIG="+s.kubeconfig("admin"))
	}
	// Interrupted, a command gets SIGINT, then SIGKILL if it lingers.
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	var out bytes.Buffer
	w := &tee{a: &out, b: s.p.outputWriter()}
	cmd.Stdout, cmd.Stderr = w, w
	err = cmd.Run()
	if ctx.Err() != nil {
		return 0, "", ctx.Err()
	}
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		return ee.ExitCode(), out.String(), nil
	}
	if err != nil {
		return 0, "", fmt.Errorf("%s: %w", line, err)
	}
	return 0, out.String(), nil
}

// git runs git quietly in the current directory (for checks, not shown).
func (s *session) git(args ...string) (string, error) {
	return s.gitIn(s.dir, args...)
}

func (s *session) gitIn(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = s.env
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// tee writes to a and b.
type tee struct{ a, b io.Writer }

func (t *tee) Write(p []byte) (int, error) {
	if _, err := t.a.Write(p); err != nil {
		return 0, err
	}
	return t.b.Write(p)
}
