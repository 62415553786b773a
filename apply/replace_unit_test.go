package apply

import (
	"errors"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/ownership"
	"github.com/kubeplan/kubeplan/plan"
)

func replaceChange(group, kind, name string, annotations map[string]any) plan.Change {
	md := map[string]any{"name": name}
	if annotations != nil {
		md["annotations"] = annotations
	}
	return plan.Change{Ref: plan.Ref{Group: group, Kind: kind, Resource: strings.ToLower(kind) + "s", Name: name}, Action: plan.Replace,
		Reason: "spec.selector is immutable", Object: map[string]any{"metadata": md}}
}

func TestReplaceAllowed(t *testing.T) {
	web := replaceChange("apps", "Deployment", "web", nil)
	for _, tc := range []struct {
		allowed []string
		want    bool
	}{
		{[]string{"deployment/web"}, true},
		{[]string{"Deployment/web"}, true},
		{[]string{"deployment.apps/web"}, true},
		{[]string{"DEPLOYMENT.APPS/web"}, true},
		{[]string{"deployments/web"}, true},
		{[]string{"Deployments.apps/web"}, true},
		{[]string{"deployment.batch/web"}, false},
		{[]string{"deploy/web"}, false},
		{[]string{"deployment/Web"}, false}, // names are case-sensitive
		{[]string{"service/web", "deployment/api"}, false},
		{nil, false},
	} {
		if got := replaceAllowed(web, tc.allowed); got != tc.want {
			t.Errorf("replaceAllowed(%v) = %v, want %v", tc.allowed, got, tc.want)
		}
	}
	if !replaceAllowed(replaceChange("apps", "Deployment", "web", map[string]any{ownership.ReplaceAnnotation: "allow"}), nil) {
		t.Error("the annotation kubeplan.dev/replace: allow does not allow it")
	}
	if replaceAllowed(replaceChange("apps", "Deployment", "web", map[string]any{ownership.ReplaceAnnotation: "yes"}), nil) {
		t.Error("an annotation other than allow allows it")
	}
	if !replaceAllowed(replaceChange("", "Service", "api", nil), []string{"service/api"}) {
		t.Error("a core kind without group")
	}
}

func TestCheckReplaces(t *testing.T) {
	changes := []plan.Change{
		{Ref: plan.Ref{Kind: "ConfigMap", Name: "c"}, Action: plan.Update},
		replaceChange("apps", "Deployment", "web", nil),
		replaceChange("", "Service", "api", nil),
	}
	err := CheckReplaces(changes, []string{"service/api"})
	if !errors.Is(err, ErrReplaceNotAllowed) {
		t.Fatalf("err = %v, want ErrReplaceNotAllowed", err)
	}
	msg := err.Error()
	for _, want := range []string{"deployment.apps/web (spec.selector is immutable)", "--replace deployment.apps/web", "kubeplan.dev/replace: allow", "nothing was written"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q: %s", want, msg)
		}
	}
	if strings.Contains(msg, "service/api") {
		t.Errorf("an allowed object is named as refused: %s", msg)
	}
	if err := CheckReplaces(changes, []string{"service/api", "deployment/web"}); err != nil {
		t.Errorf("all allowed: %v", err)
	}
	if err := CheckReplaces(changes[:1], nil); err != nil {
		t.Errorf("no replace: %v", err)
	}
	if err := CheckReplaces(nil, []string{"deployment"}); err == nil || !strings.Contains(err.Error(), "KIND/NAME") {
		t.Errorf("bad --replace value: %v", err)
	}
}
