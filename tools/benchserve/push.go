package main

import (
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/benchkit"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/serve"
)

const pushSectionTitle = "## serve: a push to in sync over 100 projects x 50 objects"

// pushSecret is the webhook secret of the benchmark's serve.
const pushSecret = "benchserve-webhook-secret"

// pushSample is one push: from the webhook sent to the project's run
// reported at the pushed commit, and that run's own duration.
type pushSample struct {
	Project       string
	Latency, Run  time.Duration
	OtherProjects int // runs of other projects the push caused (want 0)
}

// overhead is what the push added to the run: its latency less the run.
func (s pushSample) overhead() time.Duration { return s.Latency - s.Run }

// pushResult is the push benchmark.
type pushResult struct {
	first   time.Duration
	pushes  []pushSample
	machine benchkit.Machine
}

// measurePushes runs kubeplan serve with its webhooks and an interval of
// an hour, applies everything once, then makes o.pushes one-project
// changes, each committed and announced with a signed GitHub push
// webhook, and times each until serve reports that project's run at the
// commit.
func measurePushes(bin string, c *testkube.Cluster, repo, work string, o options) (*pushResult, error) {
	secret := filepath.Join(work, "webhook-secret")
	if err := os.WriteFile(secret, []byte(pushSecret), 0o600); err != nil {
		return nil, err
	}
	o.interval = time.Hour // only the pushes run projects
	p, err := startServe(bin, c, repo, work, o, "--webhook-addr", "127.0.0.1:0", "--webhook-secret-file", secret)
	if err != nil {
		return nil, err
	}
	defer p.stop()
	get := httpGet(p.metricsURL)
	step("first round: applying %d projects x %d objects", o.spec.projects, o.spec.objects)
	m, _, err := waitRounds(get, 1, 10*time.Minute, func() {})
	if err != nil {
		return nil, err
	}
	res := &pushResult{first: time.Duration(m["kubeplan_round_duration_seconds"] * float64(time.Second))}
	if ok := sumPrefix(m, `kubeplan_runs_total{`, `result="success"`); int(ok) != o.spec.projects || p.failures.Load() > 0 {
		return nil, fmt.Errorf("the first round applied %v of %d projects", ok, o.spec.projects)
	}
	for i := range o.pushes {
		k := (i * 7) % o.spec.projects // spread over the projects
		name := o.spec.project(k)
		sha, err := changeProject(repo, o.spec, k, i)
		if err != nil {
			return nil, err
		}
		before, err := scrape(get)
		if err != nil {
			return nil, err
		}
		start := time.Now()
		if err := sendPush(p.hooksURL, sha); err != nil {
			return nil, err
		}
		rev := fmt.Sprintf(`kubeplan_revision_info{project=%q,revision=%q}`, name, sha)
		var after map[string]float64
		for deadline := start.Add(2 * time.Minute); ; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				return nil, fmt.Errorf("push %d: project %s not run at %s within 2 minutes", i+1, name, sha[:7])
			}
			if after, err = scrape(get); err == nil && after[rev] == 1 {
				break
			}
		}
		latency := time.Since(start)
		sum := fmt.Sprintf(`kubeplan_run_duration_seconds_sum{project=%q}`, name)
		s := pushSample{Project: name, Latency: latency,
			Run: time.Duration((after[sum] - before[sum]) * float64(time.Second))}
		s.OtherProjects = int(sumPrefix(after, "kubeplan_runs_total{", "") - sumPrefix(before, "kubeplan_runs_total{", "") - 1)
		if after[fmt.Sprintf(`kubeplan_run_result{project=%q}`, name)] != 1 {
			return nil, fmt.Errorf("push %d: the run of %s failed", i+1, name)
		}
		step("push %d (%s at %s): in sync after %s, of which the run %s: %s more",
			i+1, name, sha[:7], latency.Round(time.Millisecond), s.Run.Round(time.Millisecond), s.overhead().Round(time.Millisecond))
		res.pushes = append(res.pushes, s)
	}
	if n := p.failures.Load(); n > 0 {
		return nil, fmt.Errorf("%d runs failed", n)
	}
	return res, nil
}

// changeProject writes the ConfigMap "pushed" of project k (its file
// pushed.yaml, the value the push's number i) and commits it; it returns
// the commit.
func changeProject(repo string, s spec, k, i int) (string, error) {
	file := filepath.Join(repo, "apps", s.project(k), "pushed.yaml")
	cm := fmt.Sprintf("apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: pushed\n  labels: {app: bench}\ndata:\n  push: %q\n", fmt.Sprint(i))
	if err := os.WriteFile(file, []byte(cm), 0o644); err != nil {
		return "", err
	}
	for _, args := range [][]string{{"add", "-A"}, {"-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-q", "-m", fmt.Sprintf("push %d", i)}} {
		if _, err := git(repo, args...); err != nil {
			return "", err
		}
	}
	return git(repo, "rev-parse", "HEAD")
}

func git(dir string, args ...string) (string, error) {
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("git %s: %v: %s", strings.Join(args, " "), err, out)
	}
	return strings.TrimSpace(string(out)), nil
}

// sendPush posts a GitHub push of sha on main, signed.
func sendPush(hooks, sha string) error {
	body := fmt.Sprintf(`{"ref":"refs/heads/main","after":%q}`, sha)
	req, err := http.NewRequest(http.MethodPost, hooks+"/hooks/github", strings.NewReader(body))
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-GitHub-Event", "push")
	req.Header.Set("X-Hub-Signature-256", serve.Sign([]byte(pushSecret), []byte(body)))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusAccepted {
		return fmt.Errorf("the push webhook answered %s", resp.Status)
	}
	return nil
}

// percentile is the nearest-rank p-th percentile of ds.
func percentile(ds []time.Duration, p float64) time.Duration {
	if len(ds) == 0 {
		return 0
	}
	s := slices.Clone(ds)
	slices.Sort(s)
	i := int(p/100*float64(len(s))+0.999999) - 1
	return s[min(max(i, 0), len(s)-1)]
}

func (r *pushResult) markdown(o options) string {
	var b strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&b, format, args...) }
	w("%s\n\n", pushSectionTitle)
	w("`go run ./tools/benchserve -push -pushes %d -projects %d -objects %d` (tools/benchserve): one `kubeplan serve --interval 1h --concurrency %d --webhook-addr ...` process reconciles %d projects of %d ConfigMaps each from a local git repository on a testcluster (the first round applies all %d objects, %s). Then %d times: one project's directory changes (a ConfigMap added or changed), the change is committed, and a signed GitHub push webhook is sent; the time is from sending it until serve's /metrics (read every 10 ms) shows that project's run at the commit (`kubeplan_revision_info`), less the run's own duration (`kubeplan_run_duration_seconds`: lint, plan, apply, health wait).\n\n",
		o.pushes, o.spec.projects, o.spec.objects, o.concurrency, o.spec.projects, o.spec.objects, o.spec.projects*o.spec.objects, r.first.Round(10*time.Millisecond), len(r.pushes))
	w("| push | project | push to in sync | the run | the rest | other projects run |\n|---|---|---|---|---|---|\n")
	var lat, run, over []time.Duration
	others := 0
	for i, s := range r.pushes {
		w("| %d | %s | %s | %s | %s | %d |\n", i+1, s.Project, s.Latency.Round(time.Millisecond), s.Run.Round(time.Millisecond), s.overhead().Round(time.Millisecond), s.OtherProjects)
		lat, run, over = append(lat, s.Latency), append(run, s.Run), append(over, s.overhead())
		others += s.OtherProjects
	}
	w("\nPush to in sync less the run: p50 **%s**, p90 %s (target: 5 s); push to in sync p50 %s, the run p50 %s; other projects run by the pushes: %d.\n\n",
		percentile(over, 50).Round(time.Millisecond), percentile(over, 90).Round(time.Millisecond),
		percentile(lat, 50).Round(time.Millisecond), percentile(run, 50).Round(time.Millisecond), others)
	w("Machine: %d CPUs (%s), %s, %s, commit %s.\n", r.machine.NumCPU, r.machine.CPUModel, r.machine.MemTotal, r.machine.GoVersion, r.machine.Commit)
	return b.String()
}
