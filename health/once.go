package health

import (
	"context"

	"golang.org/x/sync/errgroup"

	"github.com/kubeplan/kubeplan/internal/healthexpr"
	"github.com/kubeplan/kubeplan/internal/kube"
)

// Assess checks every ref once, without waiting: the health `status` shows.
// It reads one LIST per resource and namespace (a GET per object where
// listing is forbidden), and the pods of a namespace once when one of its
// workloads is not ready. rules are the health rules in CEL that judge
// custom resources (kubeplan.yaml's health:); nil is the built-in ones.
func Assess(ctx context.Context, c *kube.Client, refs []kube.Ref, rules *healthexpr.Set) []Result {
	r := &healthReader{c: c}
	s := newHealthState(c, refs, "")
	s.rules = rules
	var groups []*healthGroup
	s.startGroup = func(g *healthGroup) { groups = append(groups, g) }
	s.readPods = func(ns string) {
		for _, ev := range r.once(ctx, &healthGroup{gvr: healthPodsGVR, ns: ns}) {
			s.apply(ev)
		}
	}
	all := make([]int, len(refs))
	for i := range refs {
		all[i] = i
	}
	s.locate(all)
	read := make([][]healthEvent, len(groups))
	var g errgroup.Group
	g.SetLimit(8)
	for i := range groups {
		g.Go(func() error {
			read[i] = r.once(ctx, groups[i])
			return nil
		})
	}
	_ = g.Wait() // every call returns nil: errors are kept per object
	for _, evs := range read {
		for _, ev := range evs {
			s.apply(ev)
		}
	}
	out := make([]Result, len(refs))
	for i := range refs {
		out[i] = s.result(i)
	}
	return out
}
