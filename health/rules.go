package health

import (
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/healthexpr"
	"github.com/kubeplan/kubeplan/internal/kube"
)

// healthByRule is the health of live object u by its health rule in CEL
// (kubeplan.yaml's health:, else a built-in; internal/healthexpr) instead
// of kstatus: current is Current, inProgress (or none true, or an
// expression that cannot be evaluated yet) InProgress, failed Failed with
// a message naming the rule. ok is false when no rule is about u, or u is
// being deleted (kstatus's Terminating).
func healthByRule(ref kube.Ref, u *unstructured.Unstructured, rules *healthexpr.Set) (Result, bool) {
	if u.GetDeletionTimestamp() != nil {
		return Result{}, false
	}
	c := rules.For(u.Object)
	if c == nil {
		return Result{}, false
	}
	out := c.Evaluate(u.Object)
	res := Result{Ref: ref, Message: out.Message}
	switch out.Status {
	case healthexpr.Current:
		res.Status = Current
	case healthexpr.Failed:
		res.Status = Failed
	default:
		res.Status = InProgress
	}
	return res, true
}
