package main

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// scrape reads a Prometheus text page into "name{labels}" -> value.
func scrape(get func() (io.ReadCloser, error)) (map[string]float64, error) {
	body, err := get()
	if err != nil {
		return nil, err
	}
	defer body.Close()
	out := map[string]float64{}
	sc := bufio.NewScanner(body)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	for sc.Scan() {
		l := sc.Text()
		if l == "" || l[0] == '#' {
			continue
		}
		i := strings.LastIndexByte(l, ' ')
		if i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(l[i+1:], 64)
		if err != nil {
			continue
		}
		out[l[:i]] = v
	}
	return out, sc.Err()
}

// httpGet is scrape's reader for kubeplan's /metrics.
func httpGet(url string) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) {
		resp, err := http.Get(url)
		if err != nil {
			return nil, err
		}
		return resp.Body, nil
	}
}

// apiserverGet is scrape's reader for the API server's /metrics.
func apiserverGet(c *kube.Client) func() (io.ReadCloser, error) {
	return func() (io.ReadCloser, error) {
		return c.Discovery.RESTClient().Get().AbsPath("/metrics").Stream(context.Background())
	}
}

// apiserverWrites sums apiserver_request_total over the verbs that write,
// for the resources kubeplan writes (configmaps, leases, events).
func apiserverWrites(m map[string]float64) float64 {
	n := 0.0
	for k, v := range m {
		if !strings.HasPrefix(k, "apiserver_request_total{") {
			continue
		}
		verb := label(k, "verb")
		res := label(k, "resource")
		if verb == "GET" || verb == "LIST" || verb == "WATCH" || verb == "WATCHLIST" {
			continue
		}
		if res == "configmaps" || res == "leases" || res == "events" {
			n += v
		}
	}
	return n
}

func label(series, name string) string {
	i := strings.Index(series, name+`="`)
	if i < 0 {
		return ""
	}
	rest := series[i+len(name)+2:]
	j := strings.IndexByte(rest, '"')
	if j < 0 {
		return ""
	}
	return rest[:j]
}

// rss is a process's peak resident set (VmHWM), its current one (VmRSS)
// and the anonymous part of that (RssAnon: the heap, stacks; not the
// binary's pages mapped from its file), in MiB.
func rss(pid int) (peak, now, anon float64) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, 0, 0
	}
	for _, l := range strings.Split(string(b), "\n") {
		f := strings.Fields(l)
		if len(f) < 2 {
			continue
		}
		kb, _ := strconv.ParseFloat(f[1], 64)
		switch f[0] {
		case "VmHWM:":
			peak = kb / 1024
		case "VmRSS:":
			now = kb / 1024
		case "RssAnon:":
			anon = kb / 1024
		}
	}
	return peak, now, anon
}

// round is one measured no-op round.
type round struct {
	Wall, KubeplanCPU, ServerCPU                      time.Duration
	KubeplanWrites, KubeplanRequests, APIServerWrites float64
	PeakRSS, RSS, PeakAnon                            float64
}

// baselineRSS is the peak RSS, in MiB, of `kubeplan version`: what the
// binary costs before it does anything (package initialisation, its
// pages).
func baselineRSS(bin string) float64 {
	cmd := exec.Command(bin, "version")
	if err := cmd.Run(); err != nil {
		return 0
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		return float64(ru.Maxrss) / 1024
	}
	return 0
}
