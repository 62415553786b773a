package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

func main() { benchkit.Main("benchserve", run) }

type options struct {
	spec        spec
	rounds      int
	interval    time.Duration
	concurrency int
	doc         string
	env         string
	// push measures pushes (-push): pushes one-project changes, each
	// announced with a signed webhook.
	push   bool
	pushes int
}

// step prints a progress line.
var step = benchkit.Stepper("benchserve")

func run(args []string) error {
	fs := flag.NewFlagSet("benchserve", flag.ContinueOnError)
	var o options
	fs.IntVar(&o.spec.projects, "projects", 100, "projects in the repository")
	fs.IntVar(&o.spec.objects, "objects", 50, "ConfigMaps per project")
	fs.IntVar(&o.rounds, "rounds", 5, "no-op rounds measured, after the first round that applies everything")
	fs.DurationVar(&o.interval, "interval", 30*time.Second, "kubeplan serve --interval")
	fs.IntVar(&o.concurrency, "concurrency", 4, "kubeplan serve --concurrency")
	fs.StringVar(&o.env, "kubeplan-env", "", "KEY=VALUE given to the kubeplan process only (e.g. GOMEMLIMIT=80MiB)")
	fs.BoolVar(&o.push, "push", false, "measure push to in sync instead: one-project changes, each announced with a signed push webhook (serve --interval 1h)")
	fs.IntVar(&o.pushes, "pushes", 20, "pushes measured with -push")
	benchkit.DocFlag(fs, &o.doc, sectionTitle+" (with -push: "+pushSectionTitle+")")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if o.rounds < 1 || o.spec.projects < 1 || o.spec.objects < 1 || o.pushes < 1 {
		return errors.New("-rounds, -pushes, -projects and -objects must be at least 1")
	}
	root, err := benchkit.ModuleRoot()
	if err != nil {
		return err
	}
	step("building kubeplan")
	bin, err := benchkit.BuildKubeplan(root)
	if err != nil {
		return err
	}
	step("starting a testcluster")
	c, err := testkube.Launch()
	if err != nil {
		return err
	}
	defer c.Stop()
	work, err := os.MkdirTemp("", "benchserve-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	repo := filepath.Join(work, "repo")
	if err := writeRepo(repo, o.spec); err != nil {
		return err
	}
	nsFile := filepath.Join(work, "namespaces.yaml")
	if err := os.WriteFile(nsFile, []byte(namespacesYAML(o.spec)), 0o644); err != nil {
		return err
	}
	if _, err := c.TryKubectl("apply", "--server-side", "-f", nsFile); err != nil {
		return err
	}
	admin, err := kube.NewFromKubeconfig(c.AdminKubeconfig(), "default")
	if err != nil {
		return err
	}
	if o.push {
		res, err := measurePushes(bin, c, repo, work, o)
		if err != nil {
			return err
		}
		res.machine = benchkit.DescribeMachine(root)
		return benchkit.Publish(root, o.doc, pushSectionTitle, res.markdown(o), step)
	}
	res, err := measure(bin, c, admin, repo, work, o)
	if err != nil {
		return err
	}
	step("timing the floor: a client-go loop making a round's reads")
	if res.floor, err = floor(admin, o.spec, o.concurrency, c.PID()); err != nil {
		return err
	}
	res.machine = benchkit.DescribeMachine(root)
	res.base = baselineRSS(bin)
	return benchkit.Publish(root, o.doc, sectionTitle, res.markdown(o), step)
}

// measure runs kubeplan serve until it has made o.rounds no-op rounds
// after the first, measuring each.
func measure(bin string, c *testkube.Cluster, admin *kube.Client, repo, work string, o options) (*result, error) {
	p, err := startServe(bin, c, repo, work, o)
	if err != nil {
		return nil, err
	}
	defer p.stop()
	metricsURL := p.metricsURL
	get := httpGet(metricsURL)
	pid := p.pid()
	res := &result{}
	step("first round: applying %d projects x %d objects", o.spec.projects, o.spec.objects)
	m, _, err := waitRounds(get, 1, 10*time.Minute, func() {})
	if err != nil {
		return nil, err
	}
	perScrape := scrapeCost(get, pid)
	step("one scrape of kubeplan's /metrics costs it %s CPU", perScrape)
	res.first = time.Duration(m["kubeplan_round_duration_seconds"] * float64(time.Second))
	if ok := sumPrefix(m, `kubeplan_runs_total{`, `result="success"`); int(ok) != o.spec.projects || p.failures.Load() > 0 {
		return nil, fmt.Errorf("the first round applied %v of %d projects", ok, o.spec.projects)
	}
	for r := 1; r <= o.rounds; r++ {
		// The peak RSS of this round alone: reset VmHWM (Linux 4.0+).
		_ = os.WriteFile(fmt.Sprintf("/proc/%d/clear_refs", pid), []byte("5"), 0)
		// The round starts when kubeplan's CPU time moves (read from
		// /proc, which costs kubeplan nothing): CPU is counted from the
		// read before that.
		cpu0, srv0 := benchkit.ProcessCPU(pid), benchkit.ProcessCPU(c.PID())
		for {
			time.Sleep(20 * time.Millisecond)
			cpu, srv := benchkit.ProcessCPU(pid), benchkit.ProcessCPU(c.PID())
			if cpu-cpu0 >= 20*time.Millisecond {
				break
			}
			cpu0, srv0 = cpu, srv
		}
		// A round's first requests read (the source, the parents, the
		// members): the API server's count taken now misses no write.
		before, err := scrape(apiserverGet(admin))
		if err != nil {
			return nil, err
		}
		peakAnon := 0.0
		next, scrapes, err := waitRounds(get, float64(r+1), o.interval+5*time.Minute, func() {
			_, _, anon := rss(pid)
			peakAnon = max(peakAnon, anon)
		})
		if err != nil {
			return nil, err
		}
		// What serving this benchmark's scrapes cost kubeplan is not the
		// round's.
		cpu := benchkit.ProcessCPU(pid) - cpu0 - time.Duration(scrapes)*perScrape
		srv := benchkit.ProcessCPU(c.PID()) - srv0
		after, err := scrape(apiserverGet(admin))
		if err != nil {
			return nil, err
		}
		peak, now, _ := rss(pid)
		rd := round{
			Wall:             time.Duration(next["kubeplan_round_duration_seconds"] * float64(time.Second)),
			KubeplanCPU:      cpu,
			ServerCPU:        srv,
			KubeplanWrites:   next["kubeplan_kube_writes_total"] - m["kubeplan_kube_writes_total"],
			KubeplanRequests: next["kubeplan_kube_requests_total"] - m["kubeplan_kube_requests_total"],
			APIServerWrites:  apiserverWrites(after) - apiserverWrites(before),
			PeakRSS:          peak, RSS: now, PeakAnon: peakAnon,
		}
		step("no-op round %d: %s wall, kubeplan %s CPU, testcluster %s CPU, %v requests, %v kubeplan writes, %v API server writes (configmaps, events), RSS %.0f MiB (peak %.0f, anonymous peak %.0f)",
			r, rd.Wall.Round(time.Millisecond), rd.KubeplanCPU, rd.ServerCPU, rd.KubeplanRequests, rd.KubeplanWrites, rd.APIServerWrites, rd.RSS, rd.PeakRSS, rd.PeakAnon)
		res.rounds = append(res.rounds, rd)
		m = next
	}
	if n := p.failures.Load(); n > 0 {
		return nil, fmt.Errorf("%d runs failed", n)
	}
	return res, nil
}

// waitRounds waits until kubeplan_rounds_total reaches n, reading
// kubeplan's metrics every 250 ms (scrapes counts them) and calling poll
// every 20 ms.
func waitRounds(get func() (io.ReadCloser, error), n float64, within time.Duration, poll func()) (m map[string]float64, scrapes int, err error) {
	deadline := time.Now().Add(within)
	for tick := 0; time.Now().Before(deadline); tick++ {
		poll()
		if tick%12 == 0 {
			scrapes++
			m, err := scrape(get)
			if err == nil && m["kubeplan_rounds_total"] >= n {
				return m, scrapes, nil
			}
		}
		time.Sleep(20 * time.Millisecond)
	}
	return nil, scrapes, fmt.Errorf("kubeplan serve did not finish round %v within %s", n, within)
}

// scrapeCost is the CPU kubeplan spends answering one /metrics scrape,
// measured over 50 scrapes between rounds.
func scrapeCost(get func() (io.ReadCloser, error), pid int) time.Duration {
	const n = 50
	before := benchkit.ProcessCPU(pid)
	for range n {
		_, _ = scrape(get)
	}
	return (benchkit.ProcessCPU(pid) - before) / n
}

func sumPrefix(m map[string]float64, prefix, contains string) float64 {
	n := 0.0
	for k, v := range m {
		if strings.HasPrefix(k, prefix) && strings.Contains(k, contains) {
			n += v
		}
	}
	return n
}
