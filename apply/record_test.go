package apply_test

import (
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/plan"
)

// The parent records when a run last wrote (applied-at) apart from when a
// run last looked (checked-at), and a failed run as failed.
func TestIntegrationRecordAppliedAndChecked(t *testing.T) {
	e := newEnv(t)
	e.write("configmap.yaml", settings)
	if _, _, err := e.run(plan.Options{}, apply.Options{}); err != nil {
		t.Fatal(err)
	}
	annotation := func(k string) string {
		return e.get("configmap", e.as.Name, "-o", "jsonpath={.metadata.annotations.kubeplan\\.dev/"+k+"}")
	}
	if annotation("applied-at") == "" || annotation("checked-at") == "" || annotation("result") != "ok" {
		t.Fatalf("after the first apply: applied-at %q checked-at %q result %q", annotation("applied-at"), annotation("checked-at"), annotation("result"))
	}
	// Age both times, then run again with nothing to do: checked-at moves
	// (it is older than a minute), applied-at stays, no member is written.
	const old = "2000-01-01T00:00:00Z"
	e.c.Kubectl(t, "-n", e.ns, "annotate", "--overwrite", "configmap", e.as.Name, "kubeplan.dev/applied-at="+old, "kubeplan.dev/checked-at="+old)
	r, cl, err := e.run(plan.Options{}, apply.Options{})
	if err != nil || !r.InSync || outcomes(r) != "" {
		t.Fatalf("no-op: %v %+v", err, r)
	}
	if annotation("applied-at") != old || annotation("checked-at") == old {
		t.Errorf("no-op run: applied-at %q (want %s), checked-at %q (want it moved)", annotation("applied-at"), old, annotation("checked-at"))
	}
	if cl.Requests.Writes() != 1 {
		t.Errorf("no-op run made %d writes, want 1 (the checked-at record)", cl.Requests.Writes())
	}
	// Right after, a no-op run writes nothing at all.
	if r, cl, err = e.run(plan.Options{}, apply.Options{}); err != nil || cl.Requests.Writes() != 0 {
		t.Errorf("second no-op: %v, %d writes", err, cl.Requests.Writes())
	}
	// A run that writes moves applied-at.
	e.c.Kubectl(t, "-n", e.ns, "annotate", "--overwrite", "configmap", e.as.Name, "kubeplan.dev/applied-at="+old)
	e.write("configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  currency: USD\n")
	if r, _, err = e.run(plan.Options{}, apply.Options{}); err != nil || outcomes(r) != "configmap/settings configured" {
		t.Fatalf("change: %v %s", err, outcomes(r))
	}
	if annotation("applied-at") == old {
		t.Error("applied-at did not move on a run that wrote")
	}
	// A run that fails before writing is recorded, and the set is kept.
	kinds := e.get("configmap", e.as.Name, "-o", "jsonpath={.metadata.annotations.applyset\\.kubernetes\\.io/contains-group-kinds}")
	if err := apply.RecordFailure(t.Context(), e.client(), e.as, "kubeplan", errString("lint found 1 error(s)")); err != nil {
		t.Fatal(err)
	}
	if annotation("result") != "failed" || annotation("last-error") != "lint found 1 error(s)" {
		t.Errorf("after a failure: result %q error %q", annotation("result"), annotation("last-error"))
	}
	if got := e.get("configmap", e.as.Name, "-o", "jsonpath={.metadata.annotations.applyset\\.kubernetes\\.io/contains-group-kinds}"); got != kinds || kinds == "" {
		t.Errorf("contains-group-kinds %q, was %q", got, kinds)
	}
	// The next good run records ok and clears the error.
	if _, _, err = e.run(plan.Options{}, apply.Options{}); err != nil {
		t.Fatal(err)
	}
	if annotation("result") != "ok" || annotation("last-error") != "" {
		t.Errorf("after recovery: result %q error %q", annotation("result"), annotation("last-error"))
	}
}

type errString string

func (e errString) Error() string { return string(e) }
