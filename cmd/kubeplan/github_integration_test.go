package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

const (
	ghRepo   = "acme/shop"
	ghToken  = "ghs_kubeplanTestToken0123456789"
	ghSecret = "kp-s3cret-Value!" // a stringData value
	ghDBUser = "db-token-12345"   // a data value, written base64
	ghPR     = 7
)

// githubSim simulates a GitHub Actions step on a pull_request event: the
// event payload, the env files and the API at srv.
type githubSim struct {
	dir, outputs, summary string
}

func newGitHubSim(t *testing.T, srv *githubtest.Server, event string) *githubSim {
	t.Helper()
	dir := t.TempDir()
	g := &githubSim{dir: dir, outputs: filepath.Join(dir, "output"), summary: filepath.Join(dir, "summary")}
	payload := filepath.Join(dir, "event.json")
	body := fmt.Sprintf(`{"action":"synchronize","number":%d,"pull_request":{"number":%d,"head":{"ref":"price"}},"repository":{"full_name":%q}}`, ghPR, ghPR, ghRepo)
	if err := os.WriteFile(payload, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	for k, v := range map[string]string{
		"GITHUB_ACTIONS":      "true",
		"GITHUB_EVENT_NAME":   event,
		"GITHUB_EVENT_PATH":   payload,
		"GITHUB_OUTPUT":       g.outputs,
		"GITHUB_STEP_SUMMARY": g.summary,
		"GITHUB_API_URL":      srv.APIURL(),
		"GITHUB_REPOSITORY":   ghRepo,
		"GITHUB_SERVER_URL":   "https://github.com",
		"GITHUB_RUN_ID":       "4242",
		"GITHUB_TOKEN":        ghToken,
	} {
		t.Setenv(k, v)
	}
	return g
}

var outputEntry = regexp.MustCompile(`(?s)([a-z-]+)<<(ghadelimiter_[0-9a-f]{32})\n(.*?)\n(ghadelimiter_[0-9a-f]{32})\n`)

// outputs parses $GITHUB_OUTPUT as the runner does; a later value wins.
func (g *githubSim) outputValues(t *testing.T) map[string]string {
	t.Helper()
	data, _ := os.ReadFile(g.outputs)
	out := map[string]string{}
	rest := string(data)
	for rest != "" {
		m := outputEntry.FindStringSubmatchIndex(rest)
		if m == nil || m[0] != 0 {
			t.Fatalf("$GITHUB_OUTPUT is not in the heredoc form: %q", rest)
		}
		sub := outputEntry.FindStringSubmatch(rest)
		if sub[2] != sub[4] {
			t.Fatalf("delimiters differ: %q", sub[0])
		}
		out[sub[1]] = sub[3]
		rest = rest[m[1]:]
	}
	return out
}

func (g *githubSim) read(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}

// runCombined runs kubeplan with stdout and stderr going to one buffer, so
// the order of everything printed is kept.
func runCombined(args ...string) (int, string) {
	var b bytes.Buffer
	code := Main(args, streams{in: strings.NewReader(""), out: &b, err: &b})
	return code, b.String()
}

// noSecrets fails when text holds the token or a Secret value outside the
// ::add-mask:: lines that register them.
func noSecrets(t *testing.T, what, text string) {
	t.Helper()
	b64 := base64.StdEncoding.EncodeToString([]byte(ghDBUser))
	for line := range strings.SplitSeq(text, "\n") {
		if strings.HasPrefix(line, "::add-mask::") {
			continue
		}
		for _, s := range []string{ghToken, ghSecret, ghDBUser, b64} {
			if strings.Contains(line, s) {
				t.Errorf("%s shows %q: %q", what, s, line)
			}
		}
	}
}

func TestIntegrationGitHubPlanComment(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "gitops", ns)
	srv := githubtest.New(t, ghRepo, ghToken)
	// Comments that must stay as they are: a person's, kubeplan's for
	// another ApplySet and another namespace in the same pull request, and
	// kubeplan's for this ApplySet in another pull request.
	human := srv.AddComment(ghRepo, ghPR, "alice", "Looks good, but check the price.")
	otherSet := srv.AddComment(ghRepo, ghPR, "github-actions[bot]", fmt.Sprintf("<!-- kubeplan:plan cluster=- namespace=%s applyset=configmap/other -->\nold", ns))
	otherNS := srv.AddComment(ghRepo, ghPR, "github-actions[bot]", "<!-- kubeplan:plan cluster=- namespace=elsewhere applyset=configmap/gitops-applyset -->\nold")
	otherPR := srv.AddComment(ghRepo, ghPR+1, "github-actions[bot]", fmt.Sprintf("<!-- kubeplan:plan cluster=- namespace=%s applyset=configmap/gitops-applyset -->\nold", ns))
	untouched := map[int64]string{}
	for _, cm := range append(srv.Comments(ghRepo, ghPR), srv.Comments(ghRepo, ghPR+1)...) {
		untouched[cm.ID] = cm.Body
	}
	if len(untouched) != 4 || untouched[human] == "" || untouched[otherSet] == "" || untouched[otherNS] == "" || untouched[otherPR] == "" {
		t.Fatalf("fixture comments: %v", untouched)
	}
	sim := newGitHubSim(t, srv, "pull_request")

	dir := t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cfg := filepath.Join(t.TempDir(), "kubeplan.yaml")
	if err := os.WriteFile(cfg, []byte("rules:\n  plaintext-secret: off\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	write("configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {currency: EUR}\n")
	write("secret.yaml", fmt.Sprintf("apiVersion: v1\nkind: Secret\nmetadata: {name: db}\nstringData:\n  password: %q\n  flag: \"yes\"\ndata:\n  user: %s\n",
		ghSecret, base64.StdEncoding.EncodeToString([]byte(ghDBUser))))
	base := []string{"plan", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/gitops-applyset", "--config", cfg, dir}
	kf := kube.Flags()
	kf.KubeConfig = &kc
	marker := fmt.Sprintf("<!-- kubeplan:plan cluster=%s namespace=%s applyset=configmap/gitops-applyset -->", kube.ContextName(kf), ns)

	// First run: masks first, the plan on stdout, one comment created.
	code, out := runCombined(base...)
	if code != 0 {
		t.Fatalf("first plan: exit %d\n%s", code, out)
	}
	wantMasks := "::add-mask::" + ghToken + "\n" +
		"::add-mask::" + ghSecret + "\n" +
		"::add-mask::" + base64.StdEncoding.EncodeToString([]byte(ghDBUser)) + "\n" +
		"::add-mask::" + ghDBUser + "\n"
	// Sorted within the manifests' values; "yes" is too short to mask.
	if !strings.HasPrefix(out, "::add-mask::"+ghToken+"\n") || strings.Count(out, "::add-mask::") != 4 {
		t.Errorf("output does not start with the masks:\n%s", out)
	}
	if got := out[:len(wantMasks)]; !sameLines(got, wantMasks) {
		t.Errorf("masks:\n%s\nwant (any order after the token):\n%s", got, wantMasks)
	}
	if !strings.Contains(out, "Plan: 2 to add, 0 to change, 0 to prune, 0 unchanged.\n") {
		t.Errorf("no plan in the output:\n%s", out)
	}
	noSecrets(t, "plan output", out)
	calls := srv.Calls()
	want := []string{
		fmt.Sprintf("GET /repos/%s/issues/%d/comments?per_page=100", ghRepo, ghPR),
		fmt.Sprintf("POST /repos/%s/issues/%d/comments", ghRepo, ghPR),
	}
	if !slices.Equal(calls, want) {
		t.Fatalf("first run requests:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	var ours githubtest.Comment
	for _, cm := range srv.Comments(ghRepo, ghPR) {
		if _, old := untouched[cm.ID]; !old {
			ours = cm
		}
	}
	if !strings.HasPrefix(ours.Body, marker+"\n### kubeplan plan: namespace `"+ns+"`, ApplySet `configmap/gitops-applyset`\n\n**Plan: 2 to add") ||
		!strings.Contains(ours.Body, "`secret/db`") || !strings.Contains(out, "kubeplan: created the plan comment on pull request #7: https://github.com/acme/shop/pull/7#issuecomment-") {
		t.Errorf("comment:\n%s\noutput:\n%s", ours.Body, out)
	}
	noSecrets(t, "comment", ours.Body)
	sum := sim.read(t, sim.summary)
	if !strings.Contains(sum, "### kubeplan plan: namespace `"+ns+"`") || !strings.Contains(sum, "**Plan: 2 to add, 0 to change, 0 to prune, 0 unchanged.**") {
		t.Errorf("step summary:\n%s", sum)
	}
	outs := sim.outputValues(t)
	if outs["has-changes"] != "true" || outs["summary"] != "Plan: 2 to add, 0 to change, 0 to prune, 0 unchanged." {
		t.Errorf("outputs %q", outs)
	}

	// Apply in GitHub mode: outputs say what was written.
	code, out = runCombined("apply", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/gitops-applyset", "--config", cfg, "--timeout", "60s", dir)
	if code != 0 || !strings.HasPrefix(out, "::add-mask::"+ghToken+"\n") {
		t.Fatalf("apply: exit %d\n%s", code, out)
	}
	noSecrets(t, "apply output", out)
	if outs := sim.outputValues(t); outs["has-changes"] != "true" || outs["summary"] != "Apply: 2 created, 0 configured, 0 pruned, 0 unchanged." {
		t.Errorf("apply outputs %q", outs)
	}
	if sum := sim.read(t, sim.summary); !strings.Contains(sum, "**Apply: 2 created, 0 configured, 0 pruned, 0 unchanged.**") || !strings.Contains(sum, "| `secret/db` | ➕ created |") {
		t.Errorf("apply summary:\n%s", sum)
	}

	// Second run, after a change: the same comment is edited, nothing else.
	write("configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {currency: USD}\n")
	srv.ResetLog()
	code, stdout, stderr := cli(base...)
	if code != 0 || strings.Contains(stdout, "::") || !strings.HasSuffix(stdout, "Plan: 0 to add, 1 to change, 0 to prune, 1 unchanged.\n") {
		t.Fatalf("second plan: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	if !strings.HasPrefix(stderr, "::add-mask::") {
		t.Errorf("stderr does not start with the masks:\n%s", stderr)
	}
	noSecrets(t, "stdout", stdout)
	noSecrets(t, "stderr", stderr)
	want = []string{
		fmt.Sprintf("GET /repos/%s/issues/%d/comments?per_page=100", ghRepo, ghPR),
		"GET /user", // whose the marked comment is: /user refuses the GITHUB_TOKEN, so github-actions[bot]
		fmt.Sprintf("PATCH /repos/%s/issues/comments/%d", ghRepo, ours.ID),
	}
	if calls := srv.Calls(); !slices.Equal(calls, want) {
		t.Fatalf("second run requests:\n%s\nwant:\n%s", strings.Join(calls, "\n"), strings.Join(want, "\n"))
	}
	for _, r := range srv.Requests() {
		if r.Header.Get("Authorization") != "Bearer "+ghToken || !strings.HasPrefix(r.Header.Get("User-Agent"), "kubeplan/") {
			t.Errorf("%s %s: headers %v", r.Method, r.Path, r.Header)
		}
	}
	cs := srv.Comments(ghRepo, ghPR)
	if len(cs) != 4 {
		t.Errorf("%d comments on the pull request, want 4", len(cs))
	}
	for _, cm := range append(cs, srv.Comments(ghRepo, ghPR+1)...) {
		if cm.ID == ours.ID {
			if !strings.HasPrefix(cm.Body, marker+"\n") || !strings.Contains(cm.Body, "**Plan: 0 to add, 1 to change, 0 to prune, 1 unchanged.**") ||
				!strings.Contains(cm.Body, "-  currency: EUR\n+  currency: USD\n") {
				t.Errorf("updated comment:\n%s", cm.Body)
			}
			noSecrets(t, "updated comment", cm.Body)
			continue
		}
		if untouched[cm.ID] != cm.Body {
			t.Errorf("comment %d changed: %q", cm.ID, cm.Body)
		}
	}
	if outs := sim.outputValues(t); outs["has-changes"] != "true" || outs["summary"] != "Plan: 0 to add, 1 to change, 0 to prune, 1 unchanged." {
		t.Errorf("outputs %q", outs)
	}
	noSecrets(t, "step summary", sim.read(t, sim.summary))
	noSecrets(t, "outputs", sim.read(t, sim.outputs))
	if strings.Count(sim.read(t, sim.summary), "### kubeplan ") != 3 {
		t.Errorf("the summary should hold two plans and one apply:\n%s", sim.read(t, sim.summary))
	}

	// Apply the change, then apply again: the drift-repair workflow's
	// has-changes goes true, then false.
	applyArgs := []string{"apply", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/gitops-applyset", "--config", cfg, "--timeout", "60s", dir}
	if code, _, stderr := cli(applyArgs...); code != 0 || sim.outputValues(t)["has-changes"] != "true" {
		t.Fatalf("apply change: exit %d, outputs %q\n%s", code, sim.outputValues(t), stderr)
	}
	if code, _, stderr := cli(applyArgs...); code != 0 || sim.outputValues(t)["has-changes"] != "false" || sim.outputValues(t)["summary"] != "Apply: 0 created, 0 configured, 0 pruned, 2 unchanged." {
		t.Fatalf("apply in sync: exit %d, outputs %q\n%s", code, sim.outputValues(t), stderr)
	}

	// A read-only token: a warning, and the plan keeps its exit code.
	srv.ResetLog()
	srv.ReadOnly = true
	code, stdout, stderr = cli(append(base, "--detailed-exitcode")...)
	if code != 0 || !strings.Contains(stderr, "::warning title=kubeplan plan::cannot comment on pull request #7: 403 Resource not accessible by integration; give the workflow 'pull-requests: write'") {
		t.Errorf("read-only token: exit %d\n%s", code, stderr)
	}
	noSecrets(t, "stderr", stderr)
	srv.ReadOnly = false

	// A plan that fails says so in the same comment and in the summary, so
	// neither goes on showing the last plan as current.
	write("configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {currency: [USD]}\n")
	srv.ResetLog()
	code, stdout, stderr = cli(base...)
	if code != 1 || stdout != "" || !strings.Contains(stderr, "configmap.yaml:4:8: error schema: data.currency must be a string") {
		t.Fatalf("failing plan: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	want[2] = fmt.Sprintf("PATCH /repos/%s/issues/comments/%d", ghRepo, ours.ID)
	if calls := srv.Calls(); !slices.Equal(calls, want) {
		t.Errorf("failing plan requests: %q, want %q", calls, want)
	}
	for _, cm := range srv.Comments(ghRepo, ghPR) {
		if cm.ID == ours.ID && (!strings.HasPrefix(cm.Body, marker+"\n### kubeplan plan: namespace `"+ns+"`, ApplySet `configmap/gitops-applyset`\n\n> [!CAUTION]\n> The plan failed") ||
			!strings.Contains(cm.Body, "lint found 1 error(s); nothing was sent to the cluster")) {
			t.Errorf("comment after a failed plan:\n%s", cm.Body)
		}
	}
	if sum := sim.read(t, sim.summary); !strings.HasSuffix(sum, "```\nlint found 1 error(s); nothing was sent to the cluster\n```\n") {
		t.Errorf("summary after a failed plan:\n%s", sum[max(0, len(sum)-500):])
	}
	write("configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {currency: USD}\n")

	// --comment=false, and an event other than a pull request: no request.
	srv.ResetLog()
	if code, _, stderr := cli(append(base, "--comment=false")...); code != 0 || len(srv.Calls()) != 0 {
		t.Errorf("--comment=false: exit %d, requests %q\n%s", code, srv.Calls(), stderr)
	}
	// -o json keeps stdout pure JSON: masks and notes go to stderr.
	t.Setenv("GITHUB_EVENT_NAME", "push")
	code, stdout, stderr = cli(append(base, "-o", "json")...)
	var doc struct{ Version int }
	if err := json.Unmarshal([]byte(stdout), &doc); code != 0 || err != nil || doc.Version != 1 || len(srv.Calls()) != 0 {
		t.Errorf("push event: exit %d, %v, requests %q\nstdout:\n%s\nstderr:\n%s", code, err, srv.Calls(), stdout, stderr)
	}

	// Drift and prunes are warnings on the pull request: drift on the line
	// that defines the object, without its values.
	c.Kubectl(t, "-n", ns, "patch", "configmap", "settings", "--type=merge", "-p", `{"data":{"currency":"GBP"}}`)
	if err := os.Remove(filepath.Join(dir, "secret.yaml")); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = cli(base...)
	for _, w := range []string{
		"\n::warning file=" + filepath.Join(dir, "configmap.yaml") + ",line=1,title=drift::configmap/settings was changed in the cluster, and applying takes it back:%0Adata.currency (set by kubectl-patch)\n",
		"\n::warning title=prune::applying deletes secret/db from the cluster: it is no longer in the manifests\n",
	} {
		if code != 0 || !strings.Contains(stderr, w) || strings.Contains(stderr, "GBP") {
			t.Errorf("drift and prune: exit %d, want %q in\n%s", code, w, stderr)
		}
	}
}

// sameLines reports whether a and b hold the same lines, in any order.
func sameLines(a, b string) bool {
	x, y := strings.Split(a, "\n"), strings.Split(b, "\n")
	slices.Sort(x)
	slices.Sort(y)
	return slices.Equal(x, y)
}
