package health

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	dynamicfake "k8s.io/client-go/dynamic/fake"
	k8stesting "k8s.io/client-go/testing"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// healthOwnersClient is a fake cluster with objs, events and ReplicaSets
// listable.
func healthOwnersClient(objs ...runtime.Object) *dynamicfake.FakeDynamicClient {
	return dynamicfake.NewSimpleDynamicClientWithCustomListKinds(runtime.NewScheme(), map[schema.GroupVersionResource]string{
		healthEventsGVR: "EventList", healthSecretsGVR: "SecretList", healthReplicaSetsGVR: "ReplicaSetList",
	}, objs...)
}

// healthReplicaSet is a ReplicaSet of revision rev owned by the object
// whose UID is owner.
func healthReplicaSet(t *testing.T, name, rev, owner string) runtime.Object {
	return healthObj(t, fmt.Sprintf(`apiVersion: apps/v1
kind: ReplicaSet
metadata:
  name: %s
  namespace: ns
  labels: {app: web}
  annotations: {deployment.kubernetes.io/revision: %q}
  ownerReferences: [{apiVersion: apps/v1, kind: Deployment, name: web, uid: %s, controller: true}]
spec: {selector: {matchLabels: {app: web}}}
`, name, rev, owner))
}

const healthOwnersDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: ns
  uid: uid-web
  annotations: {deployment.kubernetes.io/revision: "2"}
spec: {selector: {matchLabels: {app: web}}}
`

// A Deployment whose pods are refused (Pod Security, a quota) has no pods
// to name its ReplicaSet: the diagnosis still lists the FailedCreate
// events of the ReplicaSet of its current revision, with the
// Deployment's own, and not those of an older revision's or another
// Deployment's ReplicaSet.
func TestDiagnosisOwnersEventsOfDeploymentReplicaSets(t *testing.T) {
	dyn := healthOwnersClient(
		healthReplicaSet(t, "web-new", "2", "uid-web"),
		healthReplicaSet(t, "web-old", "1", "uid-web"),
		healthReplicaSet(t, "other-x", "2", "uid-other"),
		healthWarning(t, 1, "ReplicaSet", "web-old", "", "FailedCreate", "old revision's refusal", 1),
		healthWarning(t, 2, "ReplicaSet", "web-new", "", "FailedCreate", `Error creating: pods "web-new-x2k9d" is forbidden: violates PodSecurity "restricted:latest": privileged`, 4),
		healthWarning(t, 3, "ReplicaSet", "other-x", "", "FailedCreate", "another Deployment's", 1),
		healthWarning(t, 4, "Deployment", "web", "", "ProgressDeadlineExceeded", "ReplicaSet \"web-new\" has timed out progressing.", 1),
	)
	d := newDiagnoser(&kube.Client{Dynamic: dyn}, WaitOptions{})
	owners, missing := d.ownersOf(context.Background(), healthObj(t, healthOwnersDeployment))
	if !slices.Equal(owners, []string{"Deployment/web", "ReplicaSet/web-new"}) || missing != "" {
		t.Fatalf("owners %q, missing %q", owners, missing)
	}
	diag := d.diagnose(context.Background(), "ns", owners, nil)
	want := []Event{
		{Object: "ReplicaSet/web-new", Reason: "FailedCreate", Note: `Error creating: pods "web-new-x2k9d" is forbidden: violates PodSecurity "restricted:latest": privileged`, Count: 4},
		{Object: "Deployment/web", Reason: "ProgressDeadlineExceeded", Note: "ReplicaSet \"web-new\" has timed out progressing.", Count: 1},
	}
	if fmt.Sprint(diag.Events) != fmt.Sprint(want) {
		t.Errorf("events:\n got %+v\nwant %+v", diag.Events, want)
	}

	// Without list on replicasets, the diagnosis says so.
	dyn = healthOwnersClient()
	dyn.PrependReactor("list", "replicasets", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Group: "apps", Resource: "replicasets"}, "", errors.New("no"))
	})
	d = newDiagnoser(&kube.Client{Dynamic: dyn}, WaitOptions{})
	if owners, missing := d.ownersOf(context.Background(), healthObj(t, healthOwnersDeployment)); len(owners) != 1 || missing != "missing permission: list replicasets (apps)" {
		t.Errorf("forbidden: owners %q, missing %q", owners, missing)
	}
}

// A Job's own events (BackoffLimitExceeded from the Job controller) are
// listed with its pods', the pod's owner named by the pod and the Job
// alike, and ownersOf reads nothing more for it.
func TestDiagnosisOwnersEventsOfJob(t *testing.T) {
	dyn := healthOwnersClient(
		healthWarning(t, 1, "Pod", "migrate-abcde", "uid-p", "BackOff", "Back-off restarting failed container main in pod migrate-abcde_ns(uid-p)", 2),
		healthWarning(t, 2, "Job", "migrate", "", "BackoffLimitExceeded", "Job has reached the specified backoff limit", 1),
	)
	d := newDiagnoser(&kube.Client{Dynamic: dyn}, WaitOptions{})
	job := healthObj(t, "apiVersion: batch/v1\nkind: Job\nmetadata: {name: migrate, namespace: ns, uid: uid-job}\nspec: {selector: {matchLabels: {job-name: migrate}}}\n")
	owners, missing := d.ownersOf(context.Background(), job)
	if !slices.Equal(owners, []string{"Job/migrate"}) || missing != "" || len(dyn.Actions()) != 0 {
		t.Fatalf("owners %q, missing %q, requests %v", owners, missing, dyn.Actions())
	}
	pod := healthObj(t, "apiVersion: v1\nkind: Pod\nmetadata:\n  name: migrate-abcde\n  namespace: ns\n  ownerReferences: [{apiVersion: batch/v1, kind: Job, name: migrate, uid: uid-job}]\nspec: {containers: [{name: main, image: m:1}]}\n")
	diag := d.diagnose(context.Background(), "ns", owners, nil)
	if len(diag.Events) != 1 || diag.Events[0].Reason != "BackoffLimitExceeded" {
		t.Errorf("no pods: events %+v", diag.Events)
	}
	diag = d.diagnose(context.Background(), "ns", owners, []unstructured.Unstructured{*pod})
	if len(diag.Events) != 2 || diag.Events[0].Object != "Pod/migrate-abcde" || diag.Events[0].Count != 2 || diag.Events[1].Object != "Job/migrate" {
		t.Errorf("events %+v", diag.Events)
	}
}
