package admission

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

func TestRunTests(t *testing.T) {
	pol, err := os.ReadFile("testdata/policies.yaml")
	if err != nil {
		t.Fatal(err)
	}
	res, err := os.ReadFile("testdata/resources.yaml")
	if err != nil {
		t.Fatal(err)
	}
	dir := writeFiles(t, map[string]string{
		"a/policy.yaml":    string(pol),
		"a/resources.yaml": string(res),
		"a/kubeplan-test.yaml": `apiVersion: kubeplan.dev/v1alpha1
kind: PolicyTest
policies: [policy.yaml]
resources: [resources.yaml]
results:
  - policy: memory
    resource: dev/Pod/big
    result: fail
    message: memory limit must be under 1Gi
  - policy: memory
    resource: Deployment/web
    result: skip
  - policy: max-replicas
    resource: Deployment/nope
    result: pass
`,
		"b/kubeplan-test.yaml": `apiVersion: kubeplan.dev/v1alpha1
kind: PolicyTest
results:
  - policy: x
    resource: Deployment/web
    result: maybe
`,
	})
	rep, err := RunTests(dir)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Passed != 2 || rep.Failed != 1 || rep.OK() {
		t.Errorf("passed %d failed %d ok %v", rep.Passed, rep.Failed, rep.OK())
	}
	if c := rep.Cases[2]; c.Line != 13 || c.Mismatch != "no resource Deployment/nope among the resources" {
		t.Errorf("case 3: line %d, %q", c.Line, c.Mismatch)
	}
	// The broken policy of testdata/policies.yaml and the bad result of b.
	var probs []string
	for _, p := range rep.Problems {
		probs = append(probs, filepath.Base(filepath.Dir(p.File))+"/"+filepath.Base(p.File)+":"+strconv.Itoa(p.Line)+": "+p.Message)
	}
	got := strings.Join(probs, "\n")
	if !strings.Contains(got, "a/policy.yaml:83: ValidatingAdmissionPolicy broken") || !strings.Contains(got, `b/kubeplan-test.yaml:4: result "maybe": want pass, fail or skip`) {
		t.Errorf("problems:\n%s", got)
	}
}
