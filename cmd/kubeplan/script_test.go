package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// The CLI is tested as scripts in testdata/script/*.txtar: the real command
// runs in-process as "kubeplan", expected output lives in the archives.
func TestMain(m *testing.M) {
	testscript.Main(stopCluster{m}, map[string]func(){
		"kubeplan": main, // as the binary runs, stderr of libraries silenced included
	})
}

// stopCluster runs the tests, then stops the cluster the integration tests
// shared (testkube.Main cannot be used: testscript.Main runs the tests).
type stopCluster struct{ m *testing.M }

func (s stopCluster) Run() int {
	// The tests run kubeplan in-process too: a CI runner's own GitHub
	// Actions environment must not turn on GitHub mode or receive their
	// outputs. Tests that want GitHub mode set these themselves.
	for _, v := range githubEnv {
		os.Unsetenv(v)
	}
	code := s.m.Run()
	if err := testkube.StopShared(); err != nil && code == 0 {
		code = 1
	}
	if err := stopPair(); err != nil && code == 0 {
		code = 1
	}
	return code
}

// githubEnv are the variables GitHub mode reads.
var githubEnv = []string{"GITHUB_ACTIONS", "GITHUB_OUTPUT", "GITHUB_STEP_SUMMARY", "GITHUB_TOKEN", "GITHUB_EVENT_NAME",
	"GITHUB_EVENT_PATH", "GITHUB_REPOSITORY", "GITHUB_API_URL", "GITHUB_SERVER_URL", "GITHUB_RUN_ID"}

func TestScripts(t *testing.T) {
	cache := t.TempDir()
	testdata, err := filepath.Abs(filepath.Join("..", "..", "testdata"))
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 filepath.Join("..", "..", "testdata", "script"),
		RequireExplicitExec: true,
		// [!cluster] is true on a developer's machine without
		// bin/testcluster: scripts that need it skip there. In CI it is
		// never true, so a missing cluster fails the script.
		Condition: func(cond string) (bool, error) {
			if cond != "cluster" {
				return false, fmt.Errorf("unknown condition %q", cond)
			}
			if testkube.InCI() {
				return true, nil
			}
			_, err := testkube.Binary()
			return err == nil, nil
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("KUBEPLAN_CACHE_DIR", cache)
			env.Setenv("NO_COLOR", "1")
			env.Setenv("GITHUB_ACTIONS", "")
			env.Setenv("TESTDATA", testdata) // fixtures: exec cp -r $TESTDATA/repos/shop shop
			return nil
		},
		UpdateScripts: os.Getenv("KUBEPLAN_UPDATE_SCRIPTS") == "1",
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode": cmdExitCode,
			"cluster":  cmdCluster(t),
			"clusters": cmdClusters(t),
			"lease":    cmdLease,
		},
	})
}

// cmdExitCode runs "exitcode N program args..." and fails unless the program
// exits with exactly N. Its stdout and stderr are kept for stdout/stderr.
func cmdExitCode(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: exitcode N program [args...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		got = ee.ExitCode()
	} else if err != nil {
		ts.Fatalf("exitcode: %v", err)
	}
	if got != want {
		ts.Fatalf("%s exited with %d, want %d", args[1], got, want)
	}
}

// cmdCluster is the script command "cluster": it starts the package's
// shared testcluster (once), makes a namespace for the script and sets
//
//	$KUBECONFIG  the admin's kubeconfig
//	$NS          the namespace
//	$EDIT        a kubeconfig for an identity bound to the edit ClusterRole in $NS only
//	$VIEW        a kubeconfig for an identity bound to the view ClusterRole in $NS only
//
// Scripts that need no cluster never start one. Scripts that do begin
// with "[short] skip", as every integration test skips under -short.
func cmdCluster(t *testing.T) func(ts *testscript.TestScript, neg bool, args []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 0 {
			ts.Fatalf("usage: cluster")
		}
		c := testkube.Shared(t)
		ns := c.Namespace(t)
		ts.Setenv("KUBECONFIG", c.AdminKubeconfig())
		ts.Setenv("NS", ns)
		ts.Setenv("EDIT", c.Narrow(t, "edit", ns))
		ts.Setenv("VIEW", viewer(t, c, ns))
	}
}

// viewer mints an identity bound to the built-in view ClusterRole in ns.
func viewer(t *testing.T, c *testkube.Cluster, ns string) string {
	user := "view-" + ns
	kc := c.User(t, user)
	c.Kubectl(t, "-n", ns, "create", "rolebinding", user, "--clusterrole=view", "--user="+user)
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		if out, _ := c.TryKubectl("--kubeconfig", kc, "auth", "can-i", "list", "configmaps", "-n", ns); strings.TrimSpace(out) == "yes" {
			return kc
		}
	}
	t.Fatalf("the view binding of %s in %s did not take effect within 5 s", user, ns)
	return ""
}

// cmdLease is the script command "lease NAME HOLDER AGE DURATION": it
// writes the Lease NAME in $NS (with kubectl, as the admin) as held by
// HOLDER, last renewed AGE ago, for DURATION: the lock a crashed or a live
// apply leaves behind.
func cmdLease(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: lease NAME HOLDER AGE DURATION")
	}
	age, err1 := time.ParseDuration(args[2])
	d, err2 := time.ParseDuration(args[3])
	if err1 != nil || err2 != nil {
		ts.Fatalf("lease: bad AGE or DURATION")
	}
	at := time.Now().Add(-age).UTC().Format("2006-01-02T15:04:05.000000Z")
	lease := fmt.Sprintf("apiVersion: coordination.k8s.io/v1\nkind: Lease\nmetadata: {name: %s}\nspec: {holderIdentity: %s, leaseDurationSeconds: %d, acquireTime: %q, renewTime: %q}\n",
		args[0], args[1], int(d.Seconds()), at, at)
	path := filepath.Join(ts.Getenv("WORK"), args[0]+".lease.yaml")
	if err := os.WriteFile(path, []byte(lease), 0o644); err != nil {
		ts.Fatalf("lease: %v", err)
	}
	ts.Check(ts.Exec("kubectl", "-n", ts.Getenv("NS"), "apply", "-f", path))
}
