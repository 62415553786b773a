package main

import (
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/kubeplan/kubeplan/internal/benchkit"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// asProcess makes the test binary play the demo program, for the tests that
// interrupt or kill it (cheaper than building it once more).
const asProcess = "KUBEPLAN_DEMO_AS_PROCESS"

func TestMain(m *testing.M) {
	if os.Getenv(asProcess) == "1" {
		os.Exit(demoMain(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

func moduleRoot(t *testing.T) string {
	t.Helper()
	root, err := benchkit.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// needCluster skips (fails in CI) without bin/testcluster, like every
// integration test; make test builds it first.
func needCluster(t *testing.T) {
	t.Helper()
	testkube.Integration(t)
	if _, err := testkube.Binary(); err != nil {
		testkube.SkipUnlessCI(t, err.Error())
	}
	for _, tool := range []string{"make", "git", "kubectl"} {
		if _, err := exec.LookPath(tool); err != nil {
			testkube.SkipUnlessCI(t, tool+" is not on PATH")
		}
	}
}

var built struct {
	once sync.Once
	out  []byte
	err  error
}

// buildKubeplan runs make build once and returns bin/kubeplan.
func buildKubeplan(t *testing.T) string {
	t.Helper()
	root := moduleRoot(t)
	built.once.Do(func() {
		cmd := exec.Command("make", "build")
		cmd.Dir = root
		built.out, built.err = cmd.CombinedOutput()
	})
	if built.err != nil {
		t.Fatalf("make build: %v\n%s", built.err, built.out)
	}
	return root + "/bin/kubeplan"
}

var (
	workDirLine = regexp.MustCompile(`(?m)^demo: work directory (\S+) `)
	pidLine     = regexp.MustCompile(`(?m)^demo: testcluster running, pid (\d+)$`)
)

// workDirAndPID reads the work directory and the cluster's pid from what
// the demo said on stderr.
func workDirAndPID(t *testing.T, stderr string) (string, int) {
	t.Helper()
	w := workDirLine.FindStringSubmatch(stderr)
	p := pidLine.FindStringSubmatch(stderr)
	if w == nil || p == nil {
		t.Fatalf("the demo did not say its work directory and cluster pid on stderr:\n%s", stderr)
	}
	pid, _ := strconv.Atoi(p[1])
	return w[1], pid
}

// totalSteps is how many steps the stories have.
func totalSteps() int {
	n := 0
	for _, st := range stories {
		n += len(st.steps)
	}
	return n
}

// lastLines is the end of s, for failure messages.
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, "\n")
}
