package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// runTerminal runs kubeplan as if a person sat at a terminal, typing input.
func runTerminal(env map[string]string, input string, args ...string) (code int, stdout, stderr string) {
	var out, errb bytes.Buffer
	code = Main(args, streams{in: strings.NewReader(input), out: &out, err: &errb, terminal: true,
		getenv: func(k string) string { return env[k] }})
	return code, out.String(), errb.String()
}

// In a terminal, apply shows the plan and writes only after "yes"; not with
// --auto-approve, CI=true, or when stdin is not a terminal.
func TestIntegrationApplyAsksInATerminal(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	kc := c.Narrow(t, "gitops", ns)
	dir := t.TempDir()
	cm := func(v string) {
		body := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {currency: " + v + "}\n"
		if err := os.WriteFile(filepath.Join(dir, "cm.yaml"), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	live := func() string {
		return c.Kubectl(t, "-n", ns, "get", "configmap", "settings", "-o", "jsonpath={.data.currency}", "--ignore-not-found")
	}
	args := []string{"apply", "--kubeconfig", kc, "-n", ns, "--applyset", "configmap/set", "--wait=false", dir}

	cm("EUR")
	for _, answer := range []string{"no\n", "y\n", "YES please\n", ""} {
		code, stdout, stderr := runTerminal(nil, answer, args...)
		if code != 1 || !strings.Contains(stdout, "Plan: 1 to add") || !strings.Contains(stderr, "Only 'yes' will be accepted to approve.") ||
			!strings.Contains(stderr, "apply cancelled: nothing was written") || live() != "" {
			t.Fatalf("answer %q: exit %d, live %q\nstdout:\n%s\nstderr:\n%s", answer, code, live(), stdout, stderr)
		}
	}
	code, stdout, stderr := runTerminal(nil, "yes\n", args...)
	if code != 0 || !strings.Contains(stdout, "configmap/settings created") || live() != "EUR" {
		t.Fatalf("yes: exit %d, live %q\n%s\n%s", code, live(), stdout, stderr)
	}
	// Nothing to change: no question.
	if code, _, stderr := runTerminal(nil, "", args...); code != 0 || strings.Contains(stderr, "Enter a value") {
		t.Errorf("no changes: exit %d\n%s", code, stderr)
	}
	// No question with --auto-approve, with CI=true, or off a terminal.
	for i, v := range []string{"USD", "GBP", "CHF"} {
		cm(v)
		var code int
		var stderr string
		switch i {
		case 0:
			code, _, stderr = runTerminal(nil, "", append([]string{"apply", "--auto-approve"}, args[1:]...)...)
		case 1:
			code, _, stderr = runTerminal(map[string]string{"CI": "true"}, "", args...)
		case 2:
			code, _, stderr = cli(args...)
		}
		if code != 0 || strings.Contains(stderr, "Enter a value") || live() != v {
			t.Errorf("case %d: exit %d, live %q\n%s", i, code, live(), stderr)
		}
	}
}
