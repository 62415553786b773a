package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// serveProcess is a kubeplan serve process: its /metrics URL, its push
// webhooks' base URL (when started with them) and the runs it logged as
// failed.
type serveProcess struct {
	cmd        *exec.Cmd
	metricsURL string
	hooksURL   string
	failures   atomic.Int64
}

// startServe starts kubeplan serve on repo with o's interval and
// concurrency, plus extra flags, and waits until it listens (and its
// webhooks do, when extra has --webhook-addr).
func startServe(bin string, c *testkube.Cluster, repo, work string, o options, extra ...string) (*serveProcess, error) {
	args := append([]string{"serve", "--kubeconfig", c.AdminKubeconfig(), "--source", repo, "--ref", "main",
		"--interval", o.interval.String(), "--concurrency", fmt.Sprint(o.concurrency), "--listen", "127.0.0.1:0"}, extra...)
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), "KUBEPLAN_CACHE_DIR="+filepath.Join(work, "cache"))
	if o.env != "" {
		cmd.Env = append(cmd.Env, o.env)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	p := &serveProcess{cmd: cmd}
	webhooks := strings.Contains(strings.Join(extra, " "), "--webhook-addr")
	addr, hooks := make(chan string, 1), make(chan string, 1)
	go func() {
		sc := bufio.NewScanner(stderr)
		for sc.Scan() {
			l := sc.Text()
			if a, ok := strings.CutPrefix(l, "kubeplan serve: listening on "); ok {
				addr <- a
			} else if a, ok := strings.CutPrefix(l, "kubeplan serve: push webhooks on "); ok {
				a, _, _ = strings.Cut(a, " ")
				hooks <- a
			} else if strings.Contains(l, "failed") {
				p.failures.Add(1)
				fmt.Fprintln(os.Stderr, l)
			}
		}
	}()
	deadline := time.After(60 * time.Second)
	select {
	case a := <-addr:
		p.metricsURL = "http://" + a + "/metrics"
	case <-deadline:
		p.stop()
		return nil, errors.New("kubeplan serve did not listen within 60s")
	}
	if webhooks {
		select {
		case a := <-hooks:
			p.hooksURL = "http://" + a
		case <-deadline:
			p.stop()
			return nil, errors.New("kubeplan serve's webhooks did not listen within 60s")
		}
	}
	return p, nil
}

// stop ends the process as Kubernetes would (SIGTERM) and waits for it.
func (p *serveProcess) stop() {
	_ = p.cmd.Process.Signal(syscall.SIGTERM)
	_ = p.cmd.Wait()
}

func (p *serveProcess) pid() int { return p.cmd.Process.Pid }
