package plan

import (
	"context"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/config"
)

// leaveYielded leaves to other controllers the fields kubeplan.yaml's
// yield: rules and the built-in rules name (Options.Yield; docs/yield.md):
// they are taken out of each object before its dry-run and apply, so the
// plan shows no change for them and the apply never writes them.
//
// A path rule's field that kubeplan's apply still owns in the live object
// is sent with its live value instead (dropping it would reset it; the
// live value changes nothing, and the other controller takes the field
// over the first time it writes it). A manager rule takes out what that
// manager owns and kubeplan does not. An object that does not exist yet
// is created as git has it: the controller takes its fields over from
// there. The built-in autoscalers rule is hpa.go's.
func (p *planner) leaveYielded(ctx context.Context, targets []*target, live map[*target]*unstructured.Unstructured) error {
	y := p.opts.Yield
	if y.BuiltinOn("autoscalers") {
		if err := p.leaveReplicasToAutoscalers(ctx, targets, live); err != nil {
			return err
		}
	}
	rules := p.yieldRules()
	if len(rules) == 0 {
		return nil
	}
	for _, t := range targets {
		l := live[t]
		if l == nil {
			continue
		}
		var own fieldSet
		read := false
		mine := func() fieldSet { // read only for an object a rule is about
			if !read {
				own, read = ownFields(l, p.opts.FieldManager), true
			}
			return own
		}
		for _, r := range rules {
			if !r.MatchesKind(t.ref.Group, t.ref.Kind) || (r.when != nil && !r.when(t.obj)) {
				continue
			}
			if r.Manager != "" {
				for _, other := range fieldsOf(l, func(m metav1.ManagedFieldsEntry) bool {
					return m.Manager != p.opts.FieldManager && r.MatchesManager(m.Manager)
				}) {
					dropOthers(t.obj.Object, other, mine())
				}
				continue
			}
			for _, path := range r.Paths {
				yieldPath(t.obj.Object, mine(), mine() != nil, l.Object, path)
			}
		}
	}
	return nil
}

// yieldRules are the rules of Options.Yield with the built-in ones left
// on.
func (p *planner) yieldRules() []builtinRule {
	y := p.opts.Yield
	var out []builtinRule
	for _, name := range config.YieldBuiltins {
		if y.BuiltinOn(name) {
			out = append(out, builtinRules[name]...)
		}
	}
	for _, r := range y.Rules {
		out = append(out, builtinRule{YieldRule: r})
	}
	return out
}
