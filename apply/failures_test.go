package apply

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

func TestJoinFailuresOneLinePerRootCause(t *testing.T) {
	var changes []plan.Change
	var errs []error
	refused := errors.New("dial tcp 10.0.0.1:443: connect: connection refused")
	for i := 1; i <= 311; i++ {
		ref := plan.Ref{Version: "v1", Kind: "ConfigMap", Name: fmt.Sprintf("cm-%d", i)}
		changes = append(changes, plan.Change{Ref: ref, Source: plan.Source{File: "cms.yaml", Line: i, Col: 1}})
		errs = append(errs, fmt.Errorf("cms.yaml:%d:1: %s: %w", i, ref, &url.Error{Op: "Patch", URL: "https://10.0.0.1:443/api/v1/namespaces/ns/configmaps/" + ref.Name, Err: refused}))
	}
	changes = append(changes, plan.Change{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Name: "ok"}})
	errs = append(errs, nil)
	changes = append(changes, plan.Change{Ref: plan.Ref{Version: "v1", Kind: "ConfigMap", Name: "lost"}})
	errs = append(errs, fmt.Errorf("configmap/lost: %w", ErrLockLost))
	err := joinFailures("apply failed, nothing will be pruned", changes, errs)
	want := "apply failed, nothing will be pruned:\n" +
		"  311 objects failed: dial tcp 10.0.0.1:443: connect: connection refused (https://10.0.0.1:443); first: configmap/cm-1 (cms.yaml:1:1)\n" +
		"  configmap/lost: " + ErrLockLost.Error()
	if err == nil || err.Error() != want {
		t.Fatalf("got\n%v\nwant\n%s", err, want)
	}
	if !errors.Is(err, ErrLockLost) || !errors.Is(err, refused) {
		t.Error("the causes are not reachable with errors.Is")
	}
	if joinFailures("x", changes[311:312], errs[311:312]) != nil {
		t.Error("no failure: want nil")
	}
	if got := joinFailures("prune failed", changes[:1], errs[:1]).Error(); !strings.HasPrefix(got, "prune failed: cms.yaml:1:1: configmap/cm-1: ") {
		t.Errorf("one failure: %s", got)
	}
}
