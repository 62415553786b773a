package main

import (
	"fmt"
	"net"
	"net/url"
	"os"
	"path/filepath"
	"strconv"
	"time"

	"go.etcd.io/etcd/server/v3/embed"
)

const etcdStartTimeout = 30 * time.Second

// freePort asks the kernel for a free loopback TCP port. The port is released
// again before it is used, so a caller must be ready to retry on a clash.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}

func loopbackURL(port int) url.URL {
	return url.URL{Scheme: "http", Host: net.JoinHostPort("127.0.0.1", strconv.Itoa(port))}
}

// startEtcd runs a single-member etcd in this process with its data in dir/etcd,
// listening on free loopback ports only. It returns the server and its client URL.
func startEtcd(dir string) (*embed.Etcd, string, error) {
	dataDir := filepath.Join(dir, "etcd")
	var lastErr error
	for attempt := 0; attempt < 3; attempt++ {
		// A fresh cluster every start: the PKI is new, so old data would be unusable anyway.
		if err := os.RemoveAll(dataDir); err != nil {
			return nil, "", err
		}
		e, client, err := startEtcdOnce(dir, dataDir)
		if err == nil {
			return e, client, nil
		}
		lastErr = err
	}
	return nil, "", lastErr
}

func startEtcdOnce(dir, dataDir string) (*embed.Etcd, string, error) {
	clientPort, err := freePort()
	if err != nil {
		return nil, "", err
	}
	peerPort, err := freePort()
	if err != nil {
		return nil, "", err
	}
	cfg := embed.NewConfig()
	cfg.Name = "testcluster"
	cfg.Dir = dataDir
	cfg.ListenClientUrls = []url.URL{loopbackURL(clientPort)}
	cfg.AdvertiseClientUrls = cfg.ListenClientUrls
	cfg.ListenPeerUrls = []url.URL{loopbackURL(peerPort)}
	cfg.AdvertisePeerUrls = cfg.ListenPeerUrls
	cfg.InitialCluster = cfg.InitialClusterFromName(cfg.Name)
	cfg.Logger = "zap"
	cfg.LogLevel = "warn"
	cfg.LogOutputs = []string{filepath.Join(dir, "etcd.log")}
	// Test data: durability across power loss does not matter, speed does.
	cfg.UnsafeNoFsync = true
	cfg.AutoCompactionMode = "periodic"
	cfg.AutoCompactionRetention = "5m"

	e, err := embed.StartEtcd(cfg)
	if err != nil {
		return nil, "", fmt.Errorf("start etcd: %w", err)
	}
	select {
	case <-e.Server.ReadyNotify():
	case err := <-e.Err():
		e.Close()
		return nil, "", fmt.Errorf("etcd failed: %w", err)
	case <-time.After(etcdStartTimeout):
		e.Close()
		return nil, "", fmt.Errorf("etcd not ready after %s", etcdStartTimeout)
	}
	u := cfg.ListenClientUrls[0]
	return e, u.String(), nil
}
