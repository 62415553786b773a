package packaging

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// buildDir is $RUNNER_TEMP of the one run of the action's build step that
// all tests share (see kubeplanBinary).
var buildDir string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kubeplan-packaging-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	buildDir = dir
	code := m.Run()
	if err := testkube.StopShared(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		if code == 0 {
			code = 1
		}
	}
	os.RemoveAll(dir)
	os.Exit(code)
}

// repoRoot is the root of the kubeplan repository (two levels up).
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs(filepath.Join("..", ".."))
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(root, "action.yml")); err != nil {
		t.Fatalf("no action.yml at the repository root: %v", err)
	}
	return root
}

// actionRef is the ref the shared build pretends the action was used at
// (GITHUB_ACTION_REF), which the build step makes kubeplan's version.
// A branch, not a release tag: the action builds it from source.
const actionRef = "test-branch"

var built struct {
	once sync.Once
	bin  string
	err  error
}

// kubeplanBinary runs the action's "Build kubeplan" step once, for real (go
// build from the repository in $RUNNER_TEMP), and returns the binary it
// made. Every other run of the action skips that step and uses this binary.
func kubeplanBinary(t *testing.T) string {
	t.Helper()
	built.once.Do(func() {
		a := readAction(t, filepath.Join(repoRoot(t), "action.yml"))
		res := runAction(t, a, runEnv{
			actionPath: repoRoot(t), workspace: buildDir, runnerTemp: buildDir,
			env:  []string{"GITHUB_ACTION_REF=" + actionRef},
			skip: func(st actionStep) bool { return !isBuildStep(st) && st.ID != "install" },
		})
		if res.exitCode != 0 {
			built.err = fmt.Errorf("the build step failed (exit %d):\n%s%s", res.exitCode, res.stdout, res.stderr)
			return
		}
		built.bin = filepath.Join(buildDir, "kubeplan")
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.bin
}

func isBuildStep(st actionStep) bool { return st.Name == "Build kubeplan" }

// actionRun is one run of action.yml in a fresh workspace and $RUNNER_TEMP.
type actionRun struct {
	t          *testing.T
	a          *actionMeta
	workspace  string
	runnerTemp string
	env        []string
}

// newActionRun prepares a run whose $RUNNER_TEMP/kubeplan is the binary the
// build step made.
func newActionRun(t *testing.T) *actionRun {
	t.Helper()
	r := &actionRun{t: t, a: readAction(t, filepath.Join(repoRoot(t), "action.yml")),
		workspace: t.TempDir(), runnerTemp: t.TempDir()}
	if err := os.Symlink(kubeplanBinary(t), filepath.Join(r.runnerTemp, "kubeplan")); err != nil {
		t.Fatal(err)
	}
	r.env = []string{"KUBEPLAN_CACHE_DIR=" + t.TempDir(), "GITHUB_EVENT_NAME=push", "NO_COLOR=1"}
	return r
}

// standIn replaces $RUNNER_TEMP/kubeplan with a bash script (body), for the
// tests of what the action's script hands to kubeplan. $REAL is the real
// binary, $RECORD a directory the script may write to.
func (r *actionRun) standIn(body string) (record string) {
	r.t.Helper()
	record = r.t.TempDir()
	p := filepath.Join(r.runnerTemp, "kubeplan")
	os.Remove(p)
	script := "#!/usr/bin/env bash\nREAL=" + shellQuote(kubeplanBinary(r.t)) + "\nRECORD=" + shellQuote(record) + "\n" + body + "\n"
	if err := os.WriteFile(p, []byte(script), 0o755); err != nil {
		r.t.Fatal(err)
	}
	return record
}

func (r *actionRun) write(name, body string) {
	r.t.Helper()
	p := filepath.Join(r.workspace, name)
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		r.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
		r.t.Fatal(err)
	}
}

func (r *actionRun) run(inputs map[string]string) runResult {
	r.t.Helper()
	return runAction(r.t, r.a, runEnv{
		actionPath: repoRoot(r.t), workspace: r.workspace, runnerTemp: r.runnerTemp,
		token: "ghs_testtoken0123456789", inputs: inputs, env: r.env, skip: isBuildStep,
	})
}

// leftovers lists what the run left in $RUNNER_TEMP besides kubeplan.
func (r *actionRun) leftovers() []string {
	r.t.Helper()
	ents, err := os.ReadDir(r.runnerTemp)
	if err != nil {
		r.t.Fatal(err)
	}
	var names []string
	for _, e := range ents {
		if e.Name() != "kubeplan" {
			names = append(names, e.Name())
		}
	}
	return names
}

func shellQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'" }

// lookPath finds a tool the test needs; without it the test is skipped on
// a developer's machine and fails in CI (.ci/run installs it).
func lookPath(t *testing.T, tool, pkg string) string {
	t.Helper()
	p, err := exec.LookPath(tool)
	if err != nil {
		testkube.SkipUnlessCI(t, fmt.Sprintf("%s not found: apt-get install %s", tool, pkg))
	}
	return p
}

const badDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: store
spec:
  replicas: three
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.30
`

// goodDeployment is badDeployment fixed.
var goodDeployment = strings.Replace(badDeployment, "replicas: three", "replicas: 3", 1)
