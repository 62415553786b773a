package main

import (
	"bufio"
	"io"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// TestIntegrationSuspendInterval: apply --interval, the scheduled job as
// a real process with a narrow identity, is refused every run while its
// set is suspended and writes nothing (the set's resourceVersions stay
// over several runs); once resumed, its next run applies the commit it
// held back.
func TestIntegrationSuspendInterval(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	bin := testkube.Kubeplan(t)
	kc := c.Narrow(t, "interval", ns)
	g := newGitRepo(t)
	settings := func(v string) map[string]string {
		return map[string]string{"settings.yaml": "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  currency: " + v + "\n"}
	}
	first := g.commit("eur", settings("EUR"))
	cmd := exec.Command(bin, "apply", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/set", "--source", g.bare, "--ref", "main", "--interval", "1s", "--wait=false")
	cmd.Env = append(cmd.Environ(), "KUBEPLAN_CACHE_DIR="+t.TempDir())
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { _ = cmd.Process.Kill(); _ = cmd.Wait() }()
	lines := make(chan string, 1000)
	for _, r := range []io.Reader{stdout, stderr} {
		go func() {
			sc := bufio.NewScanner(r)
			for sc.Scan() {
				lines <- sc.Text()
			}
		}()
	}
	waitFor := func(want string) {
		t.Helper()
		deadline := time.After(60 * time.Second)
		for {
			select {
			case l := <-lines:
				if strings.Contains(l, want) {
					return
				}
			case <-deadline:
				t.Fatalf("no %q within 60 s", want)
			}
		}
	}
	waitFor("in sync with " + first + " eur")
	if code, out, errs := cli("suspend", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/set", "--reason", "incident 123"); code != 0 {
		t.Fatalf("suspend: exit %d\n%s\n%s", code, out, errs)
	}
	versions := func() string {
		return c.Kubectl(t, "-n", ns, "get", "configmaps,leases", "-o", "jsonpath={range .items[*]}{.metadata.name}={.metadata.resourceVersion} {end}")
	}
	before := versions()
	second := g.commit("usd", settings("USD"))
	refusal := `configmap/set in namespace ` + ns + ` is suspended by interval-` + ns + `: "incident 123"`
	waitFor(refusal)
	waitFor(refusal) // a later run, at the interval
	waitFor(refusal)
	if after := versions(); after != before {
		t.Fatalf("the scheduled job wrote to the suspended set:\nbefore %s\nafter  %s", before, after)
	}
	if code, out, errs := cli("resume", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/set"); code != 0 {
		t.Fatalf("resume: exit %d\n%s\n%s", code, out, errs)
	}
	waitFor("in sync with " + second + " usd")
	if got := c.Kubectl(t, "-n", ns, "get", "configmap", "settings", "-o", "jsonpath={.data.currency}"); got != "USD" {
		t.Fatalf("after resume the currency is %q", got)
	}
}
