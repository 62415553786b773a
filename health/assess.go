package health

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/cli-utils/pkg/kstatus/status"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// healthPodLister lists the pods in the object's namespace matching a selector.
type healthPodLister func(labels.Selector) ([]unstructured.Unstructured, error)

// healthAssess computes the health of live object u, listing its pods (through
// list, only when it is not healthy) to say why.
func healthAssess(ref kube.Ref, u *unstructured.Unstructured, list healthPodLister) Result {
	res := Result{Ref: ref}
	ks, err := status.Compute(u)
	if err != nil {
		res.Status, res.Message = Unknown, err.Error()
		return res
	}
	res.Status, res.Message = string(ks.Status), ks.Message
	obj := u.Object
	gk := u.GroupVersionKind().GroupKind()
	if gk.Empty() {
		gk = schema.GroupKind{Group: ref.Group, Kind: ref.Kind}
	}
	if ks.Status == status.TerminatingStatus {
		return res
	}

	switch gk {
	case schema.GroupKind{Group: "batch", Kind: "Job"}:
		return healthAssessJob(res, u, list)
	case schema.GroupKind{Kind: "Pod"}:
		if ks.Status != status.CurrentStatus {
			if why := healthPodReason([]unstructured.Unstructured{*u}); why != "" {
				res.Message = why
			}
		} else if healthString(obj, "status", "phase") == "Failed" {
			res.Status, res.Message = Failed, healthJoin("pod failed", healthPodReason([]unstructured.Unstructured{*u}))
		}
		return res
	}

	var have, want int64
	var verb string
	switch gk {
	case schema.GroupKind{Group: "apps", Kind: "Deployment"}:
		have, want, verb = healthInt(obj, 0, "status", "availableReplicas"), healthInt(obj, 1, "spec", "replicas"), "available"
	case schema.GroupKind{Group: "apps", Kind: "ReplicaSet"}:
		have, want, verb = healthInt(obj, 0, "status", "availableReplicas"), healthInt(obj, 1, "spec", "replicas"), "available"
	case schema.GroupKind{Group: "apps", Kind: "StatefulSet"}:
		have, want, verb = healthInt(obj, 0, "status", "readyReplicas"), healthInt(obj, 1, "spec", "replicas"), "ready"
	case schema.GroupKind{Group: "apps", Kind: "DaemonSet"}:
		have, want, verb = healthInt(obj, 0, "status", "numberReady"), healthInt(obj, 0, "status", "desiredNumberScheduled"), "ready"
	default:
		return res
	}
	// kstatus skips the generation check when status.observedGeneration is
	// missing; a workload the controller has not seen yet is not Current.
	if gen := u.GetGeneration(); ks.Status == status.CurrentStatus && gen > 0 && healthInt(obj, 0, "status", "observedGeneration") < gen {
		res.Status = InProgress
		res.Message = fmt.Sprintf("%s generation %d not observed yet", u.GetKind(), gen)
	}
	if res.Status == Current {
		return res
	}
	why := ""
	if list != nil {
		why = healthWorkloadReason(u, list)
	}
	if why == "" {
		if c, ok := healthFindCondition(u, "ReplicaFailure"); ok && c.status == "True" {
			why = healthJoin(c.reason, c.message)
		}
	}
	if why == "" {
		why = res.Message
	}
	res.Message = healthJoin(fmt.Sprintf("%d/%d %s", have, want, verb), why)
	return res
}

// healthAssessJob: a Job is done when its Complete condition is True, failed when
// its Failed condition is; kstatus's Current for a running Job is not enough
// (kubernetes-sigs/cli-utils#329).
func healthAssessJob(res Result, u *unstructured.Unstructured, list healthPodLister) Result {
	obj := u.Object
	completions := healthInt(obj, 1, "spec", "completions")
	progress := fmt.Sprintf("%d/%d succeeded", healthInt(obj, 0, "status", "succeeded"), completions)
	if c, ok := healthFindCondition(u, "Failed"); ok && c.status == "True" {
		res.Status, res.Message = Failed, healthJoin(c.reason, c.message)
		if res.Message == "" {
			res.Message = "job failed"
		}
		return res
	}
	if c, ok := healthFindCondition(u, "Complete"); ok && c.status == "True" {
		res.Status, res.Message = Complete, progress
		return res
	}
	if res.Status == Current {
		res.Status = InProgress
	}
	why := ""
	if c, ok := healthFindCondition(u, "Suspended"); ok && c.status == "True" {
		why = "suspended"
	} else if list != nil {
		why = healthWorkloadReason(u, list)
	}
	res.Message = healthJoin(progress, why)
	return res
}

// healthWorkloadReason lists the pods selected by u's spec.selector and returns
// why they are not running ("" when it finds nothing wrong).
func healthWorkloadReason(u *unstructured.Unstructured, list healthPodLister) string {
	sel, ok := healthSelectorOf(u)
	if !ok {
		return ""
	}
	pods, err := list(sel)
	if err != nil {
		return ""
	}
	return healthPodReason(pods)
}

// healthSelectorOf is the pod selector of workload u (its spec.selector);
// ok is false when it has none or selects everything.
func healthSelectorOf(u *unstructured.Unstructured) (labels.Selector, bool) {
	raw, ok, _ := unstructured.NestedMap(u.Object, "spec", "selector")
	if !ok {
		return nil, false
	}
	var ls metav1.LabelSelector
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(raw, &ls); err != nil {
		return nil, false
	}
	sel, err := metav1.LabelSelectorAsSelector(&ls)
	if err != nil || sel.Empty() {
		return nil, false
	}
	return sel, true
}

// healthBenignWaiting are waiting reasons of containers on their way up.
var healthBenignWaiting = map[string]bool{"": true, "ContainerCreating": true, "PodInitializing": true}

// healthPodReason returns the first reason a container of pods is not running:
// a waiting reason such as ImagePullBackOff, CrashLoopBackOff or
// ErrImagePull, a failed termination, or Unschedulable. Reasons of containers
// that are merely starting (ContainerCreating) come only when there is no
// other.
func healthPodReason(pods []unstructured.Unstructured) string {
	var benign string
	for _, p := range pods {
		if p.GetDeletionTimestamp() != nil {
			continue
		}
		obj := p.Object
		if c, ok := healthFindCondition(&p, "PodScheduled"); ok && c.status == "False" && c.reason == "Unschedulable" {
			return "Unschedulable"
		}
		if r := healthString(obj, "status", "reason"); r != "" && healthString(obj, "status", "phase") == "Failed" {
			return r
		}
		for _, field := range []string{"initContainerStatuses", "containerStatuses"} {
			statuses, _, _ := unstructured.NestedSlice(obj, "status", field)
			for _, s := range statuses {
				cs, _ := s.(map[string]any)
				if cs == nil {
					continue
				}
				if reason, ok, _ := unstructured.NestedString(cs, "state", "waiting", "reason"); ok {
					if !healthBenignWaiting[reason] {
						return reason
					}
					if benign == "" {
						benign = reason
					}
					continue
				}
				if code, ok, _ := unstructured.NestedInt64(cs, "state", "terminated", "exitCode"); ok && code != 0 {
					if reason, _, _ := unstructured.NestedString(cs, "state", "terminated", "reason"); reason != "" {
						return reason
					}
					return fmt.Sprintf("exit code %d", code)
				}
			}
		}
	}
	return benign
}

type healthCondition struct{ status, reason, message string }

func healthFindCondition(u *unstructured.Unstructured, typ string) (healthCondition, bool) {
	conds, _, _ := unstructured.NestedSlice(u.Object, "status", "conditions")
	for _, c := range conds {
		m, _ := c.(map[string]any)
		if m == nil || m["type"] != typ {
			continue
		}
		s, _ := m["status"].(string)
		r, _ := m["reason"].(string)
		msg, _ := m["message"].(string)
		return healthCondition{s, r, msg}, true
	}
	return healthCondition{}, false
}

// num reads an integer field, def when it is missing.
func healthInt(obj map[string]any, def int64, path ...string) int64 {
	v, ok, _ := unstructured.NestedFieldNoCopy(obj, path...)
	if !ok {
		return def
	}
	switch n := v.(type) {
	case int64:
		return n
	case int:
		return int64(n)
	case int32:
		return int64(n)
	case float64:
		return int64(n)
	}
	return def
}

func healthString(obj map[string]any, path ...string) string {
	s, _, _ := unstructured.NestedString(obj, path...)
	return s
}

// join joins non-empty parts with ": ".
func healthJoin(parts ...string) string {
	var out []string
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ": ")
}
