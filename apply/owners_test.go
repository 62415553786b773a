package apply

import (
	"errors"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

func TestCheckOwners(t *testing.T) {
	ch := func(name string, a plan.Action, owner string) plan.Change {
		return plan.Change{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Name: name}, Action: a, Owner: owner}
	}
	p := &plan.Plan{Changes: []plan.Change{
		ch("shared", plan.Update, "ApplySet configmap/other-set"),
		ch("chart", plan.Replace, "Helm release shop in store"),
		ch("mine", plan.Update, ""),
		ch("seen", plan.Unchanged, "Argo CD application shop"), // writes nothing, takes nothing
	}}
	err := CheckOwners(p, false)
	if !errors.Is(err, ErrOwnedElsewhere) {
		t.Fatalf("CheckOwners = %v, want ErrOwnedElsewhere", err)
	}
	for _, want := range []string{"configmap/shared (owned by ApplySet configmap/other-set)", "configmap/chart (owned by Helm release shop in store)", "--adopt", "nothing was written"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q: %v", want, err)
		}
	}
	for _, not := range []string{"mine", "seen"} {
		if strings.Contains(err.Error(), not) {
			t.Errorf("error names %s: %v", not, err)
		}
	}
	if err := CheckOwners(p, true); err != nil {
		t.Errorf("adopting: %v", err)
	}
	if err := CheckOwners(&plan.Plan{Changes: p.Changes[2:]}, false); err != nil {
		t.Errorf("nothing owned elsewhere: %v", err)
	}
}
