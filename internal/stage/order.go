package stage

import (
	"fmt"
	"sort"
	"strings"
)

// Stage is one step of a run: the objects written together, once the stage
// before it is healthy.
type Stage struct {
	// Setup is true for the stage of Namespaces and CRDs without ordering
	// annotations, when other stages run before wave 0 (see liftSetup).
	Setup bool
	// Phase is PreSync, Sync, PostSync or SyncFail.
	Phase Phase
	// Wave is the wave within the phase.
	Wave int
	// Step numbers the parts change rules split a wave into, from 1; 0
	// when the rules do not split it.
	Step int
	// Members are indexes into the objects given to Resolve, in the order
	// they were given (today's order inside a stage is apply's).
	Members []int
}

// Name is how people read the stage: "PreSync hooks", "PreSync hooks,
// wave -1", "wave 0", "wave 0, step 2", "PostSync hooks", "SyncFail hooks".
func (s Stage) Name() string {
	if s.Setup {
		return "Namespaces and CRDs"
	}
	var name string
	switch s.Phase {
	case Sync:
		name = fmt.Sprintf("wave %d", s.Wave)
	default:
		name = string(s.Phase) + " hooks"
		if s.Wave != 0 {
			name += fmt.Sprintf(", wave %d", s.Wave)
		}
	}
	if s.Step > 0 {
		name += fmt.Sprintf(", step %d", s.Step)
	}
	return name
}

// Order is a set of objects placed in stages.
type Order struct {
	// Placements are the objects' placements, by index.
	Placements []Placement
	// Stages run one after the other: PreSync hooks, the waves, PostSync
	// hooks. An Argo CD hook with several phases is a member of each.
	Stages []Stage
	// OnFail are the SyncFail hooks' stages, run in order when a stage
	// failed.
	OnFail []Stage
	// Skipped are the objects a sync does not apply: Argo CD's Skip, its
	// PreDelete and PostDelete hooks, Helm hooks of neither install nor
	// upgrade (pre-delete, test, ...).
	Skipped []int
}

type key struct{ rank, wave int }

// node is one object's place in one phase.
type node struct {
	obj  int
	key  key
	step int
}

// edge orders node from before node to, made by the rule of object by.
type edge struct {
	from, to int // node indexes
	by       int // object index of the rule
	rule     Rule
}

// Resolve places objs in stages. Change rules that order writes become
// constraints; inside one phase and wave they split it into steps by a
// topological sort. Problems: values the vocabularies do not allow, rules
// naming a group no object has, rules that wait on each other (a cycle,
// naming the objects and rules) or that the phases and waves contradict.
func Resolve(objs []Object) (Order, Problems) {
	var probs Problems
	ord := Order{Placements: make([]Placement, len(objs))}
	var nodes []node
	first := make([]int, len(objs)) // the object's node in its first phase, -1 if none
	members := map[string][]int{}   // group -> objects
	for i, o := range objs {
		p, ps := read(o, i)
		ord.Placements[i] = p
		probs = append(probs, ps...)
		first[i] = -1
		for _, ph := range p.Phases {
			if ph.Rank() < 0 {
				continue
			}
			if first[i] < 0 {
				first[i] = len(nodes)
			}
			nodes = append(nodes, node{obj: i, key: key{ph.Rank(), p.Wave}})
		}
		for _, g := range p.Groups {
			members[g] = append(members[g], i)
		}
		if first[i] < 0 {
			ord.Skipped = append(ord.Skipped, i)
		}
	}
	var edges []edge
	for i, p := range ord.Placements {
		for _, r := range p.Rules {
			ms, ok := members[r.Group]
			if !ok {
				probs = append(probs, objs[i].problem(i, ProblemUnknownGroup, r.Annotation,
					fmt.Sprintf("change rule %q names group %q, which no object has: put %s: %s on the objects it means, or fix the name", r.String(), r.Group, GroupAnnotation, r.Group)))
				continue
			}
			if !r.Orders() || first[i] < 0 {
				continue
			}
			for _, m := range ms {
				if m == i || first[m] < 0 {
					continue
				}
				e := edge{from: first[m], to: first[i], by: i, rule: r}
				if r.Before {
					e.from, e.to = e.to, e.from
				}
				edges = append(edges, e)
			}
		}
	}
	probs = append(probs, layer(objs, nodes, edges)...)
	ord.Stages, ord.OnFail = stages(nodes)
	ord.Stages = liftSetup(objs, ord, nodes, edges)
	sort.SliceStable(probs, func(i, j int) bool { return probs[i].Object < probs[j].Object })
	return ord, probs
}

// layer gives each node its step: the longest chain of rules before it
// within its phase and wave. A rule across phases or waves must agree with
// their order.
func layer(objs []Object, nodes []node, edges []edge) Problems {
	var probs Problems
	out := make([][]int, len(nodes))
	in := make([]int, len(nodes))
	var inner []edge
	for _, e := range edges {
		a, b := nodes[e.from], nodes[e.to]
		switch {
		case a.key == b.key:
			inner = append(inner, e)
			out[e.from] = append(out[e.from], len(inner)-1)
			in[e.to]++
		case less(b.key, a.key):
			o := objs[e.by]
			probs = append(probs, o.problem(e.by, ProblemCycle, e.rule.Annotation,
				fmt.Sprintf("change rule %q puts %s after %s, which its phase or wave runs later (%s, %s): move them into one wave or change the rule", e.rule.String(), objs[b.obj].Ref, objs[a.obj].Ref, stageName(a.key), stageName(b.key))))
		}
	}
	queue := []int{}
	for i := range nodes {
		if in[i] == 0 {
			queue = append(queue, i)
		}
	}
	for len(queue) > 0 {
		n := queue[0]
		queue = queue[1:]
		for _, ei := range out[n] {
			t := inner[ei].to
			if nodes[n].step+1 > nodes[t].step {
				nodes[t].step = nodes[n].step + 1
			}
			if in[t]--; in[t] == 0 {
				queue = append(queue, t)
			}
		}
	}
	var left []int
	for i := range nodes {
		if in[i] > 0 {
			left = append(left, i)
		}
	}
	if len(left) > 0 {
		probs = append(probs, cycle(objs, nodes, inner, out, in)...)
	}
	return probs
}

// cycle reports one cycle among the nodes Kahn's sort left (in > 0): a
// problem at each rule on it, naming the objects and rules in turn.
func cycle(objs []Object, nodes []node, inner []edge, out [][]int, in []int) Problems {
	start := -1
	for i := range nodes {
		if in[i] > 0 {
			start = i
			break
		}
	}
	// Walk back from start through edges into left nodes: every left
	// node has one, so the walk repeats a node, closing a cycle.
	into := map[int]int{} // node -> an inner edge into it from a left node
	for ei, e := range inner {
		if in[e.from] > 0 && in[e.to] > 0 {
			if _, ok := into[e.to]; !ok {
				into[e.to] = ei
			}
		}
	}
	seen := map[int]int{}
	var path []int // edges, walking backwards
	n := start
	for {
		if at, ok := seen[n]; ok {
			path = path[at:]
			break
		}
		seen[n] = len(path)
		ei := into[n]
		path = append(path, ei)
		n = inner[ei].from
	}
	// path is backwards: reverse it to read forwards.
	for i, j := 0, len(path)-1; i < j; i, j = i+1, j-1 {
		path[i], path[j] = path[j], path[i]
	}
	var words []string
	for _, ei := range path {
		e := inner[ei]
		words = append(words, fmt.Sprintf("%s before %s (%s on %s)", objs[nodes[e.from].obj].Ref, objs[nodes[e.to].obj].Ref, e.rule.String(), objs[e.by].Ref))
	}
	msg := "change rules form a cycle: " + strings.Join(words, ", then ") + ": remove or reverse one of these rules"
	var probs Problems
	done := map[string]bool{}
	for _, ei := range path {
		e := inner[ei]
		k := fmt.Sprint(e.by, e.rule.Annotation)
		if done[k] {
			continue
		}
		done[k] = true
		probs = append(probs, objs[e.by].problem(e.by, ProblemCycle, e.rule.Annotation, msg))
	}
	return probs
}

func less(a, b key) bool {
	if a.rank != b.rank {
		return a.rank < b.rank
	}
	return a.wave < b.wave
}

func stageName(k key) string {
	return Stage{Phase: []Phase{PreSync, Sync, PostSync, SyncFail}[k.rank], Wave: k.wave}.Name()
}

// stages groups the nodes by phase, wave and step, in run order.
func stages(nodes []node) (run, onFail []Stage) {
	type skey struct {
		key
		step int
	}
	byKey := map[skey]*Stage{}
	steps := map[key]int{} // the highest step of a phase and wave
	var keys []skey
	for _, n := range nodes {
		k := skey{n.key, n.step}
		s, ok := byKey[k]
		if !ok {
			s = &Stage{Phase: []Phase{PreSync, Sync, PostSync, SyncFail}[n.key.rank], Wave: n.key.wave}
			byKey[k] = s
			keys = append(keys, k)
		}
		s.Members = append(s.Members, n.obj)
		steps[n.key] = max(steps[n.key], n.step)
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i].key != keys[j].key {
			return less(keys[i].key, keys[j].key)
		}
		return keys[i].step < keys[j].step
	})
	for _, k := range keys {
		s := *byKey[k]
		if steps[k.key] > 0 {
			s.Step = k.step + 1
		}
		if s.Phase == SyncFail {
			onFail = append(onFail, s)
		} else {
			run = append(run, s)
		}
	}
	return run, onFail
}

// liftSetup moves Namespaces and CRDs that carry no ordering annotation and
// that no rule orders into a first stage of their own, "Namespaces and
// CRDs", when a stage runs before wave 0 (PreSync hooks, a negative wave):
// the objects of those stages live in those Namespaces and may be custom
// resources of those CRDs. kubeplan has always applied them first, kapp's
// default rules put every object after them, and an Argo CD repository
// relies on its Application creating the namespace (CreateNamespace). Without
// a stage before wave 0 they stay in wave 0, which runs first anyway.
func liftSetup(objs []Object, ord Order, nodes []node, edges []edge) []Stage {
	if len(ord.Stages) == 0 || !less(key{ord.Stages[0].Phase.Rank(), ord.Stages[0].Wave}, key{Sync.Rank(), 0}) {
		return ord.Stages
	}
	ordered := map[int]bool{}
	for _, e := range edges {
		ordered[nodes[e.from].obj], ordered[nodes[e.to].obj] = true, true
	}
	lift := map[int]bool{}
	setup := Stage{Setup: true, Phase: Sync}
	for i, o := range objs {
		p := ord.Placements[i]
		base := (o.Group == "" && o.Kind == "Namespace") || (o.Group == "apiextensions.k8s.io" && o.Kind == "CustomResourceDefinition")
		if base && p.Hook == None && !p.Skip && len(p.Rules) == 0 && len(p.Groups) == 1 && !ordered[i] && !hasOrderKey(o.Annotations) {
			lift[i] = true
			setup.Members = append(setup.Members, i)
		}
	}
	if len(lift) == 0 {
		return ord.Stages
	}
	out := []Stage{setup}
	for _, s := range ord.Stages {
		var ms []int
		for _, m := range s.Members {
			if !lift[m] {
				ms = append(ms, m)
			}
		}
		if len(ms) > 0 {
			s.Members = ms
			out = append(out, s)
		}
	}
	return out
}

// hasOrderKey reports an Argo CD or kapp ordering annotation.
func hasOrderKey(ann map[string]string) bool {
	for k := range ann {
		if k == WaveAnnotation || k == HookAnnotation || strings.HasPrefix(k, GroupAnnotation) || strings.HasPrefix(k, RuleAnnotation) {
			return true
		}
	}
	return false
}
