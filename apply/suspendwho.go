package apply

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/kube"
)

var selfSubjectReviews = schema.GroupVersionResource{Group: "authentication.k8s.io", Version: "v1", Resource: "selfsubjectreviews"}

// Who names who suspends, resumes or requests a sync, for the parent's
// record: the cluster's name for the run's identity (a SelfSubjectReview)
// and, in GitHub Actions, the actor who started the workflow ("@alice as
// system:serviceaccount:ci:deployer"). fallback is used when the cluster
// cannot say.
func Who(ctx context.Context, c *kube.Client, actor, fallback string) string {
	user := ""
	review := &unstructured.Unstructured{Object: map[string]any{"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview"}}
	if res, err := c.Dynamic.Resource(selfSubjectReviews).Create(ctx, review, metav1.CreateOptions{}); err == nil {
		user, _, _ = unstructured.NestedString(res.Object, "status", "userInfo", "username")
	}
	switch {
	case actor != "" && user != "":
		return "@" + actor + " as " + user
	case actor != "":
		return "@" + actor
	case user != "":
		return user
	}
	return fallback
}
