package main

import (
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"syscall"

	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest"

	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// bench is what both benchmarks (plan and apply) measure with: kubeplan
// built from the working tree, a testcluster, and the versions of each.
type bench struct {
	kubeplan                                       string // the binary
	kubeplanVersion, kubectlVersion, serverVersion string
	cluster                                        *cluster
}

// startBench builds bin/kubeplan and starts a testcluster that stops
// however the benchmark ends: the caller stops it, and SIGINT or SIGTERM
// stops it (after onSignal, when set) and exits 130.
func startBench(root string, onSignal func()) (*bench, error) {
	b := &bench{kubeplan: filepath.Join(root, "bin", "kubeplan")}
	step("building bin/kubeplan")
	if err := goBuild(root, b.kubeplan); err != nil {
		return nil, err
	}
	b.kubeplanVersion = benchkit.ToolVersion(b.kubeplan, "version")
	b.kubectlVersion = benchkit.ToolVersion("kubectl", "version", "--client")

	step("starting bin/testcluster")
	c, err := launchCluster()
	if err != nil {
		return nil, err
	}
	b.cluster = c
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	go func() {
		s := <-sig
		step("%s: stopping the cluster", s)
		c.Stop()
		if onSignal != nil {
			onSignal()
		}
		os.Exit(130)
	}()
	if out, err := c.kubectl(nil, "version", "-o", "yaml"); err == nil {
		for _, line := range strings.Split(out, "\n") {
			if v, ok := strings.CutPrefix(strings.TrimSpace(line), "gitVersion: "); ok {
				b.serverVersion = v // the last one is the server's
			}
		}
	}
	return b, nil
}

// loadAndLint reads the corpus and lints it as kubeplan plan and apply do
// before any request; the corpus must be clean.
func loadAndLint(corpus, ns string) ([]*manifest.Object, error) {
	kv, err := lint.NormalizeKubeVersion("")
	if err != nil {
		return nil, err
	}
	rep, objs, err := lint.Check(lint.Input{Paths: []string{corpus}, KeepObjects: true},
		lint.Options{KubeVersion: kv, Namespace: ns, Rules: map[string]lint.RuleSetting{}})
	if err != nil {
		return nil, err
	}
	if n := rep.Count(lint.Error); n > 0 {
		return nil, fmt.Errorf("lint found %d errors in the corpus", n)
	}
	return objs, nil
}
