package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

// interruptBound is what the issue demands: SIGINT or SIGTERM stops any
// phase within 2 s, with exit 1.
const interruptBound = 2 * time.Second

// slowPolicies writes a set that takes minutes to lint: 40 ConfigMaps,
// each judged by a ValidatingAdmissionPolicy whose validation runs 160,000
// CEL iterations (under the API server's per-expression cost limit).
func slowPolicies(t *testing.T) string {
	t.Helper()
	list := make([]string, 400)
	for i := range list {
		list[i] = fmt.Sprint(i)
	}
	l := "[" + strings.Join(list, ",") + "]"
	var b strings.Builder
	fmt.Fprintf(&b, `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: costly}
spec:
  failurePolicy: Fail
  matchConstraints:
    resourceRules:
      - apiGroups: [""]
        apiVersions: ["v1"]
        operations: ["CREATE"]
        resources: ["configmaps"]
  validations:
    - expression: "%s.all(i, %s.all(j, i + j >= 0))"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: costly}
spec:
  policyName: costly
  validationActions: [Deny]
`, l, l)
	for i := range 40 {
		fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: interrupted-%d}\ndata: {a: b}\n", i)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "set.yaml"), []byte(b.String()), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

// interruptRun starts kubeplan with args (stdin from in, nil for none),
// lets it reach its slow phase, sends sig, and checks that it exits 1
// within interruptBound of the signal, saying it was interrupted, having
// printed no report. It returns the stderr.
func interruptRun(t *testing.T, sig syscall.Signal, in io.Reader, args ...string) string {
	t.Helper()
	cmd := exec.Command(testkube.Kubeplan(t), args...)
	cmd.Env = append(os.Environ(), "KUBEPLAN_CACHE_DIR="+t.TempDir(), "NO_COLOR=1", "GITHUB_ACTIONS=")
	var stdout, stderr bytes.Buffer
	cmd.Stdin, cmd.Stdout, cmd.Stderr = in, &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	exited := make(chan struct{})
	go func() { done <- cmd.Wait(); close(exited) }()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		<-exited
	})
	// The slow phase takes minutes; 1.5 s in, kubeplan is in it.
	select {
	case err := <-done:
		t.Fatalf("kubeplan %s ended before the signal (%v): the slow phase is not slow\n%s", args[0], err, stderr.String())
	case <-time.After(1500 * time.Millisecond):
	}
	if err := cmd.Process.Signal(sig); err != nil {
		t.Fatal(err)
	}
	sent := time.Now()
	var err error
	select {
	case err = <-done:
	case <-time.After(30 * time.Second):
		t.Fatalf("kubeplan %s still running 30 s after %v (the bound is %s)\n%s", args[0], sig, interruptBound, stderr.String())
	}
	took := time.Since(sent)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 {
		t.Errorf("kubeplan %s after %v: %v, want exit 1\n%s", args[0], sig, err, stderr.String())
	}
	if took > interruptBound {
		t.Errorf("kubeplan %s exited %s after %v: SIGINT and SIGTERM must stop every phase within %s", args[0], took.Round(time.Millisecond), sig, interruptBound)
	}
	name := map[syscall.Signal]string{syscall.SIGINT: "SIGINT", syscall.SIGTERM: "SIGTERM"}[sig]
	if !strings.HasPrefix(stderr.String(), "kubeplan: ") || !strings.Contains(stderr.String(), "interrupted by "+name+"; stopped (nothing was written)") {
		t.Errorf("stderr does not say the run was interrupted by %s and wrote nothing:\n%s", name, stderr.String())
	}
	if stdout.Len() > 0 {
		t.Errorf("an interrupted run printed a report:\n%s", stdout.String())
	}
	return stderr.String()
}

// lint stops within 2 s of SIGINT or SIGTERM, with exit 1 and no report:
// while policies are evaluated (the evaluation watches the run's context)
// and while standard input is read (a phase that watches nothing: the
// process stops after the grace).
func TestInterruptLint(t *testing.T) {
	dir := slowPolicies(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String()+"/policies", func(t *testing.T) {
			stderr := interruptRun(t, sig, nil, "lint", dir)
			if !strings.Contains(stderr, "policy evaluation stopped at configmap/interrupted-") {
				t.Errorf("the evaluation did not stop by itself:\n%s", stderr)
			}
		})
		t.Run(sig.String()+"/stdin", func(t *testing.T) {
			// A pipe never written to, kept open: reading stdin never
			// ends. An *os.File, so that kubeplan reads it itself.
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { r.Close(); w.Close() })
			interruptRun(t, sig, r, "lint", "-")
		})
	}
}

// plan against the cluster stops within 2 s of SIGINT or SIGTERM, with exit
// 1, and writes nothing: no ApplySet parent, no object, no plan file.
func TestIntegrationInterruptPlan(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	dir := slowPolicies(t)
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM} {
		t.Run(sig.String(), func(t *testing.T) {
			ns := c.Namespace(t)
			out := filepath.Join(t.TempDir(), "plan.json")
			interruptRun(t, sig, nil, "plan", "--kubeconfig", c.Narrow(t, "edit", ns), "-n", ns,
				"--applyset", "configmap/interrupted-set", "--out", out, dir)
			if _, err := os.Stat(out); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the plan file was written: %v", err)
			}
			if got := c.Kubectl(t, "-n", ns, "get", "configmaps,validatingadmissionpolicies", "-o", "name"); strings.Contains(got, "interrupted") || strings.Contains(got, "costly") {
				t.Errorf("objects were written:\n%s", got)
			}
		})
	}
}

// apply's --timeout bounds its lint too: policies that would take minutes
// stop at the deadline with an error naming where, before any request
// (the cluster here refuses connections).
func TestApplyPolicyEvaluationSharesTheDeadline(t *testing.T) {
	dir := slowPolicies(t)
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kc, []byte(`apiVersion: v1
kind: Config
clusters: [{name: c, cluster: {server: "https://127.0.0.1:1"}}]
users: [{name: u, user: {token: not-used}}]
contexts: [{name: c, context: {cluster: c, user: u, namespace: shop}}]
current-context: c
`), 0o600); err != nil {
		t.Fatal(err)
	}
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	code, stdout, stderr := cli("apply", "--kubeconfig", kc, "--applyset", "configmap/set", "--auto-approve", "--timeout", "3s", dir)
	if code != 1 || !strings.Contains(stderr, "policy evaluation stopped at configmap/interrupted-") || !strings.Contains(stderr, "ValidatingAdmissionPolicy costly: context deadline exceeded") {
		t.Fatalf("apply --timeout 3s over minutes of policies: exit %d\nstdout:\n%s\nstderr:\n%s", code, stdout, stderr)
	}
}
