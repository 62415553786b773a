package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// The ApplySet both tools see, as the seed makes it.
const (
	applySetFlag = "configmap/gitops-applyset"
	fieldManager = "kubeplan"
)

// cluster is the test cluster and how to run kubectl against it.
type cluster struct {
	*testkube.Cluster
	cacheDir string // kubectl's discovery cache (in the cluster's directory)
}

func (c *cluster) kubectlEnv() []string {
	return []string{"KUBECACHEDIR=" + c.cacheDir}
}

// kubectl runs kubectl as admin with extra environment variables and
// returns its stdout, or its stderr in the error.
func (c *cluster) kubectl(env []string, args ...string) (string, error) {
	cmd := exec.Command("kubectl", append([]string{"--kubeconfig", c.AdminKubeconfig()}, args...)...)
	cmd.Env = append(append(os.Environ(), c.kubectlEnv()...), env...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		return stdout.String(), fmt.Errorf("kubectl %s: %w: %s", strings.Join(args, " "), err, benchkit.FirstLines(stderr.String(), 10))
	}
	return stdout.String(), nil
}

// seedApplyCommand is how the corpus is applied: the seed's command.
func seedApplyArgs(ns, corpus string) []string {
	return []string{"apply", "--server-side", "--field-manager=" + fieldManager, "--prune", "--applyset=" + applySetFlag, "-n", ns, "-f", corpus}
}

// setUp creates namespace ns, applies corpus into it as an ApplySet the
// way the seed does, and waits until its Deployments are available and the
// cluster is quiet again. It returns how long the apply took.
func (c *cluster) setUp(ns, corpus string, deployments int) (time.Duration, error) {
	if err := c.createNamespaces(ns); err != nil {
		return 0, err
	}
	start := time.Now()
	if _, err := c.kubectl([]string{"KUBECTL_APPLYSET=true"}, seedApplyArgs(ns, corpus)...); err != nil {
		return 0, err
	}
	took := time.Since(start)
	timeout := fmt.Sprintf("--timeout=%ds", 60+deployments/5)
	if _, err := c.kubectl(nil, "-n", ns, "wait", "--for=condition=Available", "deployment", "--all", timeout); err != nil {
		return took, err
	}
	c.settle()
	return took, nil
}

// createNamespaces creates the namespaces and waits for their default
// ServiceAccounts: pods cannot be created before them.
func (c *cluster) createNamespaces(nss ...string) error {
	for _, ns := range nss {
		if _, err := c.kubectl(nil, "create", "namespace", ns); err != nil {
			return err
		}
	}
	for _, ns := range nss {
		for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if _, err := c.kubectl(nil, "-n", ns, "get", "serviceaccount", "default"); err == nil {
				break
			} else if time.Now().After(deadline) {
				return err
			}
		}
	}
	return nil
}

// settle waits until the cluster is quiet (benchkit.Settle).
func (c *cluster) settle() { benchkit.Settle(c.PID()) }

// applySetID reads the ApplySet parent's id label in ns.
func (c *cluster) applySetID(ns string) (string, error) {
	out, err := c.kubectl(nil, "-n", ns, "get", applySetFlag, "-o", `jsonpath={.metadata.labels.applyset\.kubernetes\.io/id}`)
	if err != nil {
		return "", err
	}
	if out == "" {
		return "", fmt.Errorf("%s in %s has no applyset.kubernetes.io/id label", applySetFlag, ns)
	}
	return out, nil
}

// launchCluster starts bin/testcluster; stop it with Stop.
func launchCluster() (*cluster, error) {
	tc, err := testkube.Launch()
	if err != nil {
		return nil, err
	}
	return &cluster{Cluster: tc, cacheDir: filepath.Join(tc.Dir(), "kubectl-cache")}, nil
}
