package main

import (
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// In GitHub mode on a pull request, an apply whose Deployment crash-loops
// fails at once (narrow edit identity, real testcluster), and says why
// everywhere the user looks: an ::error:: at the Deployment's line in the
// manifest, the job summary, and the sticky comment the plan wrote, now
// showing the apply: the container, CrashLoopBackOff, the log tail read
// through pods/log with the Secret-backed value masked, the events. The
// value appears in no output (apart from the ::add-mask:: that registers
// it with the runner), and no line the cluster wrote is a workflow
// command.
func TestIntegrationGitHubApplyFailure(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "ghcrash", ns)
	srv := githubtest.New(t, ghRepo, ghToken)
	sim := newGitHubSim(t, srv, "pull_request")
	t.Chdir(t.TempDir()) // paths as a workflow gives them: relative to the checkout
	// The container also prints lines that would be workflow commands,
	// and a code fence.
	set := strings.Replace(crashLoopSet, `"fatal: cannot connect"]`, `"fatal: cannot connect", "::error::forged%0Aline", "##[warning]forged", "`+"```"+` @octocat"]`, 1)
	if set == crashLoopSet {
		t.Fatal("the fixture's args line moved")
	}
	if err := os.WriteFile("app.yaml", []byte(set), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{"--kubeconfig", kc, "-n", ns, "--applyset", "configmap/crashloop", "."}

	// The plan writes the sticky comment.
	if code, stdout, stderr := cli(append([]string{"plan"}, args...)...); code != 0 {
		t.Fatalf("plan: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
	planned := srv.Comments(ghRepo, ghPR)
	if len(planned) != 1 || !strings.Contains(planned[0].Body, "**Plan: 2 to add") {
		t.Fatalf("plan comment: %+v", planned)
	}
	srv.ResetLog()

	start := time.Now()
	code, stdout, stderr := cli(append([]string{"apply", "--timeout", "5m"}, args...)...)
	took := time.Since(start)
	if code != 1 || took > 30*time.Second {
		t.Fatalf("exit %d after %s (want 1 within 30 s)\nstdout:\n%s\nstderr:\n%s", code, took, stdout, stderr)
	}
	t.Logf("failed after %s", took.Round(time.Second))

	// The annotation: at app.yaml line 10, where the Deployment starts.
	checkRunnerLog(t, "apply stdout", stdout)
	cmds := checkRunnerLog(t, "apply stderr", stderr, ghToken, crashLoopCanary)
	checkRunnerLog(t, "apply stdout and stderr", stdout+stderr, ghToken, crashLoopCanary)
	i := slices.IndexFunc(cmds, func(c string) bool { return strings.HasPrefix(c, "::error ") })
	if i < 0 {
		t.Fatalf("no ::error annotation:\n%s", stderr)
	}
	ann := cmds[i]
	for _, want := range []string{
		"::error file=app.yaml,line=10,col=1,title=deployment.apps/web failed%3A CrashLoopBackOff::",
		"container main: CrashLoopBackOff",
		"| connecting with password ***%0A",
		"| fatal: cannot connect%0A",
		"| ::error::forged%250Aline%0A",
		"BackOff",
	} {
		if !strings.Contains(ann, want) {
			t.Errorf("the annotation lacks %q:\n%s", want, ann)
		}
	}

	// The job summary and the comment: the same comment, now the apply.
	if calls := srv.Calls(); !slices.Contains(calls, fmt.Sprintf("PATCH /repos/%s/issues/comments/%d", ghRepo, planned[0].ID)) {
		t.Errorf("the apply did not update the plan comment: %q", calls)
	}
	cs := srv.Comments(ghRepo, ghPR)
	if len(cs) != 1 {
		t.Fatalf("%d comments, want 1: %+v", len(cs), cs)
	}
	sum := sim.read(t, sim.summary)
	for what, md := range map[string]string{"job summary": sum, "comment": cs[0].Body} {
		if text := outsideCode(md); strings.Contains(text, "@octocat") || strings.Contains(text, "forged") {
			t.Errorf("%s shows the log outside its code block:\n%s", what, md)
		}
		for _, want := range []string{
			"### kubeplan apply: namespace `" + ns + "`, ApplySet `configmap/crashloop`",
			"> The apply failed: ",
			"**❌ `deployment.apps/web` failed: CrashLoopBackOff**, defined at `app.yaml:10:1`",
			"Container `main`: **CrashLoopBackOff**: back-off 10s restarting failed container=main pod=web-",
			"exit code 1.",
			"previous instance):\n\n````text\n",
			"connecting with password ***\nfatal: cannot connect\n::error::forged%0Aline\n##[warning]forged\n``` @octocat\n````\n",
			"| BackOff | ",
			"Back-off restarting failed container main in pod web-",
		} {
			if !strings.Contains(md, want) {
				t.Errorf("%s lacks %q:\n%s", what, want, md)
			}
		}
	}
	outs := sim.read(t, sim.outputs)
	for what, text := range map[string]string{"stdout": stdout, "stderr": stderr, "job summary": sum, "outputs": outs, "comment": cs[0].Body} {
		for line := range strings.SplitSeq(text, "\n") {
			if strings.Contains(line, crashLoopCanary) && line != "::add-mask::"+crashLoopCanary {
				t.Errorf("%s shows the Secret's value: %q", what, line)
			}
		}
	}
	if !strings.Contains(outs, "summary<<") {
		t.Errorf("outputs:\n%s", outs)
	}
}

// outsideCode is md without its fenced code blocks (a block ends at a
// line of at least as many backticks as opened it, and nothing else).
func outsideCode(md string) string {
	var b strings.Builder
	fence := ""
	for line := range strings.SplitSeq(md, "\n") {
		run := len(line) - len(strings.TrimLeft(line, "`"))
		switch {
		case fence == "" && run >= 3:
			fence = line[:run]
		case fence != "" && run >= len(fence) && strings.Trim(line, "`") == "":
			fence = ""
		case fence == "":
			b.WriteString(line + "\n")
		}
	}
	return b.String()
}
