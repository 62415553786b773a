package healthtest

import (
	"bytes"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/healthexpr"
)

// Every built-in rule passes its cases: current, inProgress and failed
// on the status its operator writes.
func TestBuiltinCases(t *testing.T) {
	rep, err := Run("testdata/builtins")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	if !rep.OK() || rep.Passed != 23 {
		t.Fatalf("%d passed, %d failed:\n%s", rep.Passed, rep.Failed, b.String())
	}
	// every built-in has a case
	judged := map[string]bool{}
	for _, c := range rep.Cases {
		judged[c.Rule] = true
	}
	for _, r := range healthexpr.BuiltinRules() {
		if !judged[r.BuiltinName()] {
			t.Errorf("no case for the built-in %s", r.BuiltinName())
		}
	}
}

// A case that fails is reported at the file:line:col of its expect:, and
// so is a rule that does not compile.
func TestFailuresAtTheirLines(t *testing.T) {
	rep, err := Run("testdata")
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := rep.WriteText(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"ok    testdata/bad/kubeplan-health-test.yaml:15:13: ready (Database.example.org/db): current by health rule Database.example.org (testdata/bad/kubeplan-health-test.yaml:4:5)",
		"FAIL  testdata/bad/kubeplan-health-test.yaml:22:13: wrong expectation (Database.example.org/db): want current, got failed: failed by health rule Database.example.org",
		"FAIL  testdata/bad/kubeplan-health-test.yaml:28:13: no rule (Cache.example.org/c): no health rule is about Cache.example.org/c",
		"error testdata/typo/kubeplan-health-test.yaml:6:14: health rule Database.example.org: current: undeclared reference to 'stauts'",
		"24 passed, 2 failed in 3 files, 1 errors",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if rep.OK() {
		t.Error("a report with failures is OK")
	}
}
