package render

import "testing"

func TestYieldNote(t *testing.T) {
	got := YieldNote("deployment.apps/web", ".spec.replicas", "other-controller", 3, `yield: [{kind: Deployment, group: apps, paths: ["spec.replicas"]}]`)
	want := `spec.replicas of deployment.apps/web was set by other-controller and taken back in 3 runs in a row; ` +
		`to leave it to other-controller, add to kubeplan.yaml: yield: [{kind: Deployment, group: apps, paths: ["spec.replicas"]}] (docs/yield.md); ` +
		`or stop other-controller from writing it`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
