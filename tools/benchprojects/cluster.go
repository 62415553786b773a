package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/internal/benchkit"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// flatApplySet is the flat set's ApplySet (scenario b).
const flatApplySet = "configmap/x"

// cluster is the test cluster and how to run kubectl and kubeplan on it.
type cluster struct {
	*testkube.Cluster
	kubeplan string // the binary
	cacheDir string // kubectl's discovery cache
}

// env is what every command run against the cluster gets.
func (c *cluster) env() []string {
	return []string{"KUBECONFIG=" + c.AdminKubeconfig(), "KUBECACHEDIR=" + c.cacheDir, "CI=true", "NO_COLOR=1"}
}

// run runs a command in dir with env() and returns its stdout, or its
// stderr in the error.
func (c *cluster) run(dir, bin string, args ...string) (string, error) {
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), c.env()...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("%s %s: %w: %s", filepath.Base(bin), strings.Join(args, " "), err, benchkit.FirstLines(stderr.String()+stdout.String(), 10))
	}
	return stdout.String(), nil
}

// setUp creates the namespaces and applies every overlay of the repository
// and the flat directory once with kubeplan apply, four at a time, then
// waits for the Deployments and for the cluster to go quiet.
func (c *cluster) setUp(repo, flat string, s spec) error {
	var ns strings.Builder
	for _, n := range append(namespaces(s), flatNamespace, oneSetNamespace) {
		fmt.Fprintf(&ns, "apiVersion: v1\nkind: Namespace\nmetadata: {name: %s}\n---\n", n)
	}
	nsFile := filepath.Join(c.Dir(), "namespaces.yaml")
	if err := os.WriteFile(nsFile, []byte(ns.String()), 0o644); err != nil {
		return err
	}
	if _, err := c.run(repo, "kubectl", "apply", "--server-side", "-f", nsFile); err != nil {
		return err
	}
	type job struct{ ns, applyset, dir string }
	var jobs []job
	for _, o := range s.overlays() {
		jobs = append(jobs, job{o.Namespace(), "configmap/kubeplan-" + o.Project(), o.Dir()})
	}
	jobs = append(jobs, job{flatNamespace, flatApplySet, flat}, job{oneSetNamespace, oneSetApplySet, oneSetDir})
	errs := make([]error, len(jobs))
	sem := make(chan struct{}, 4)
	var wg sync.WaitGroup
	for i, j := range jobs {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			_, errs[i] = c.run(repo, c.kubeplan, "apply", "-n", j.ns, "--applyset", j.applyset, "--wait=false", "--auto-approve", j.dir)
		}()
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	timeout := fmt.Sprintf("--timeout=%ds", 120+s.objects()/10)
	if _, err := c.run(repo, "kubectl", "wait", "--for=condition=Available", "deployment", "--all", "--all-namespaces", timeout); err != nil {
		return err
	}
	c.settle()
	return nil
}

func namespaces(s spec) []string {
	var out []string
	for _, o := range s.overlays() {
		out = append(out, o.Namespace())
	}
	return out
}

// settle waits until the cluster is quiet (benchkit.Settle).
func (c *cluster) settle() { benchkit.Settle(c.PID()) }

// launch builds kubeplan from the working tree into bin/kubeplan and
// starts bin/testcluster; stop it with Stop.
func launch(root string) (*cluster, error) {
	bin := filepath.Join(root, "bin", "kubeplan")
	cmd := exec.Command("go", "build", "-o", bin, "./cmd/kubeplan")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return nil, fmt.Errorf("building kubeplan: %w\n%s", err, out)
	}
	tc, err := testkube.Launch()
	if err != nil {
		return nil, err
	}
	return &cluster{Cluster: tc, kubeplan: bin, cacheDir: filepath.Join(tc.Dir(), "kubectl-cache")}, nil
}
