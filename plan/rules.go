package plan

import (
	"context"
	"slices"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/kube"
)

var ssrrGVR = schema.GroupVersionResource{Group: "authorization.k8s.io", Version: "v1", Resource: "selfsubjectrulesreviews"}

// resourceRule is one rule of a SelfSubjectRulesReview.
type resourceRule struct {
	Verbs, APIGroups, Resources, ResourceNames []string
}

// allows reports whether the rule grants pm.
func (r resourceRule) allows(pm Permission) bool {
	match := func(list []string, v string) bool { return slices.Contains(list, "*") || slices.Contains(list, v) }
	if !match(r.Verbs, pm.Verb) || !match(r.APIGroups, pm.Group) || !match(r.Resources, pm.Resource) {
		return false
	}
	return len(r.ResourceNames) == 0 || pm.Name != "" && slices.Contains(r.ResourceNames, pm.Name)
}

// rulesEntry is one namespace's review, made once per client.
type rulesEntry struct {
	once  sync.Once
	rules []resourceRule
}

// grantedByRules answers, for each permission in a namespace, whether the
// identity's rules there (one SelfSubjectRulesReview per namespace, kept
// on the client for the run) grant it. A rule that grants is a grant; a
// permission no rule grants, a cluster-scoped one, or any permission when
// the review fails, is left to a SelfSubjectAccessReview, which alone may
// say no (rules reviews can be incomplete: other authorizers, aggregated
// roles being updated).
func (p *planner) grantedByRules(ctx context.Context, perms []Permission) []bool {
	out := make([]bool, len(perms))
	for i, pm := range perms {
		if pm.Namespace == "" {
			continue
		}
		for _, r := range p.rulesIn(ctx, pm.Namespace) {
			if r.allows(pm) {
				out[i] = true
				break
			}
		}
	}
	return out
}

// rulesIn returns the identity's resource rules in ns (nil when the review
// fails).
func (p *planner) rulesIn(ctx context.Context, ns string) []resourceRule {
	return rulesOf(ctx, p.c, ns)
}

// rulesOf returns the identity's resource rules in ns (nil when the
// review fails), reviewed once per client (kube.Client.Memo).
func rulesOf(ctx context.Context, c *kube.Client, ns string) []resourceRule {
	if c.Memo == nil {
		return nil
	}
	v, _ := c.Memo.LoadOrStore("rules\x00"+ns, &rulesEntry{})
	e := v.(*rulesEntry)
	e.once.Do(func() { e.rules = reviewRules(ctx, c, ns) })
	return e.rules
}

func reviewRules(ctx context.Context, c *kube.Client, ns string) []resourceRule {
	review := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "authorization.k8s.io/v1",
		"kind":       "SelfSubjectRulesReview",
		"spec":       map[string]any{"namespace": ns},
	}}
	res, err := c.Dynamic.Resource(ssrrGVR).Create(ctx, review, metav1.CreateOptions{})
	if err != nil {
		return nil
	}
	list, _, _ := unstructured.NestedSlice(res.Object, "status", "resourceRules")
	var out []resourceRule
	for _, item := range list {
		m, _ := item.(map[string]any)
		strs := func(k string) []string {
			v, _, _ := unstructured.NestedStringSlice(m, k)
			return v
		}
		out = append(out, resourceRule{Verbs: strs("verbs"), APIGroups: strs("apiGroups"), Resources: strs("resources"), ResourceNames: strs("resourceNames")})
	}
	return out
}
