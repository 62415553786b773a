package plan

import (
	"context"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

var ssrGVR = schema.GroupVersionResource{Group: "authentication.k8s.io", Version: "v1", Resource: "selfsubjectreviews"}

// withIdentity names the identity the missing permissions are about, so
// that each `kubectl auth can-i` line carries --as (and --as-group) and an
// administrator can run it as is. When the server cannot say who we are,
// the lines go without.
func (p *planner) withIdentity(ctx context.Context, missing MissingPermissions) MissingPermissions {
	review := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "authentication.k8s.io/v1", "kind": "SelfSubjectReview",
	}}
	res, err := p.c.Dynamic.Resource(ssrGVR).Create(ctx, review, metav1.CreateOptions{})
	if err != nil {
		return missing
	}
	user, _, _ := unstructured.NestedString(res.Object, "status", "userInfo", "username")
	groups, _, _ := unstructured.NestedStringSlice(res.Object, "status", "userInfo", "groups")
	// kubectl adds system:authenticated to an impersonated user itself.
	groups = slices.DeleteFunc(groups, func(g string) bool { return g == "system:authenticated" })
	for i := range missing {
		missing[i].As, missing[i].AsGroups = user, groups
	}
	return missing
}
