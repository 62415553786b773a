package main

import (
	"path/filepath"
	"sync"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// pair is the second cluster of the "clusters" script command, started
// once and stopped after the tests (stopCluster).
var pair struct {
	once    sync.Once
	cluster *testkube.Cluster
	err     error
}

// cmdClusters is the script command "clusters": two clusters standing for
// two environments (see twoClusters); it sets $KUBECONFIG to a kubeconfig
// with the contexts dev and prod.
func cmdClusters(t *testing.T) func(ts *testscript.TestScript, neg bool, args []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 0 {
			ts.Fatalf("usage: clusters")
		}
		path, err := twoClusters(t, ts.Getenv("WORK"))
		if err != nil {
			ts.Fatalf("clusters: %v", err)
		}
		ts.Setenv("KUBECONFIG", path)
	}
}

// twoClusters starts (once) two clusters standing for two environments,
// the package's shared one and a second one, and writes
// dir/clusters.kubeconfig with the contexts dev (the shared one) and prod
// (the second), admin on both, dev current.
func twoClusters(t *testing.T, dir string) (string, error) {
	dev := testkube.Shared(t)
	pair.once.Do(func() { pair.cluster, pair.err = testkube.Launch() })
	if pair.err != nil {
		return "", pair.err
	}
	merged := clientcmdapi.NewConfig()
	for _, c := range []struct {
		name string
		kc   string
	}{{"dev", dev.AdminKubeconfig()}, {"prod", pair.cluster.AdminKubeconfig()}} {
		cfg, err := clientcmd.LoadFromFile(c.kc)
		if err != nil {
			return "", err
		}
		ctx := cfg.Contexts[cfg.CurrentContext]
		merged.Clusters[c.name] = cfg.Clusters[ctx.Cluster]
		merged.AuthInfos[c.name] = cfg.AuthInfos[ctx.AuthInfo]
		merged.Contexts[c.name] = &clientcmdapi.Context{Cluster: c.name, AuthInfo: c.name}
	}
	merged.CurrentContext = "dev"
	path := filepath.Join(dir, "clusters.kubeconfig")
	return path, clientcmd.WriteToFile(*merged, path)
}

// stopPair stops the second cluster, if one was started.
func stopPair() error {
	if pair.cluster == nil {
		return nil
	}
	return pair.cluster.Stop()
}
