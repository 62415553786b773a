package guardtest

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint/admission"
)

// rows is the report as lines: "ok|FAIL file:line: rule resource: got|mismatch".
func rows(rep *admission.TestReport) []string {
	var out []string
	for _, c := range rep.Cases {
		state, what := "ok", c.Got
		if c.Mismatch != "" {
			state, what = "FAIL", c.Mismatch
		}
		out = append(out, fmt.Sprintf("%s %s:%d: %s %s: %s", state, filepath.ToSlash(c.File), c.Line, c.Policy, c.Resource, what))
	}
	for _, p := range rep.Problems {
		out = append(out, "error "+p.Error())
	}
	return out
}

func TestRunFixtures(t *testing.T) {
	rep, err := Run(filepath.Join("..", "..", "testdata", "guards"))
	if err != nil {
		t.Fatal(err)
	}
	f := "../../testdata/guards/tests/kubeplan-guard-test.yaml"
	w := "../../testdata/guards/tests/workloads/kubeplan-guard-test.yaml"
	want := []string{
		"ok " + f + ":5: no rule \"a routine rollout says nothing\": none",
		"ok " + f + ":31: no-critical-prune persistentvolumeclaim/ledger: deny",
		"ok " + f + ":35: protect-pvc persistentvolumeclaim/ledger: require-approval",
		"ok " + f + ":46: protect-prod-namespaces statefulset.apps/postgres: require-approval",
		"ok " + f + ":48: no-statefulset-replace statefulset.apps/postgres: require-approval",
		"ok " + f + ":49: warn-loadbalancer service/postgres-public: warn",
		"ok " + f + ":50: protect-crd customresourcedefinition.apiextensions.k8s.io/backups.db.example.com: warn",
		"ok " + f + ":69: prod-prunes-at-most-ten plan: deny",
		"ok " + f + ":70: mass-prune plan: require-approval",
		"ok " + w + ":6: no rule \"a Service already of type LoadBalancer is not news\": none",
		"ok " + w + ":21: protect-namespace namespace/legacy: require-approval",
	}
	if got := rows(rep); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Passed != len(want) || rep.Failed != 0 || len(rep.Files) != 2 || !rep.OK() {
		t.Errorf("passed %d failed %d files %v", rep.Passed, rep.Failed, rep.Files)
	}
}
