package plan

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/helmhook"
	"github.com/kubeplan/kubeplan/internal/stage"
)

// Stage is one step of an ordered apply (see docs/ordering.md): the
// changes of its Members are written together once the stage before it
// is healthy. A plan has stages only when its objects carry ordering
// annotations (Argo CD waves and hooks, kapp change groups and rules, Helm
// hooks); without them Plan.Stages is empty and apply writes the set in
// one stage, as it always did.
type Stage struct {
	// Name is how people read it: "PreSync hooks", "wave -1", "wave 0,
	// step 2", "PostSync hooks", "SyncFail hooks", "Namespaces and CRDs".
	Name string `json:"name"`
	// Phase is PreSync, Sync, PostSync or SyncFail.
	Phase string `json:"phase"`
	// Wave is the wave within the phase (an Argo CD sync-wave, a Helm
	// hook's weight).
	Wave int `json:"wave"`
	// Step numbers the parts kapp change rules split a wave into, from 1.
	Step int `json:"step,omitempty"`
	// OnFail is true for a SyncFail stage: it runs only when a stage
	// failed, after it.
	OnFail bool `json:"onFail,omitempty"`
	// Members are the objects of the stage, in the plan's order. A hook of
	// two phases (a Helm hook's ServiceAccount for pre- and post- hooks)
	// is a member of both stages.
	Members []Ref `json:"members"`
	// WaitsFor is what the stage waits for before the next one starts:
	// each object it writes and what is awaited of it, "job.batch/migrate
	// complete", "deployment.apps/web rolled out" (stage.Awaited). Empty
	// when it writes nothing.
	WaitsFor []string `json:"waitsFor,omitempty"`
}

// FormatVersionStaged is the version of a saved plan with Stages: a
// kubeplan that does not know stages refuses it rather than write every
// stage at once (a migration after the Deployment that needs it).
const FormatVersionStaged = 3

// orderedKey reports an annotation that orders objects: Argo CD's and
// kapp's, and Helm's hooks.
func orderedKey(k string) bool {
	switch k {
	case stage.WaveAnnotation, stage.HookAnnotation, stage.DeletePolicyAnnotation, helmhook.Annotation:
		return true
	}
	return strings.HasPrefix(k, stage.GroupAnnotation) || strings.HasPrefix(k, stage.RuleAnnotation)
}

// ordered reports whether any target carries an ordering annotation: only
// then does the plan have stages.
func ordered(targets []*target) bool {
	for _, t := range targets {
		for k := range t.obj.GetAnnotations() {
			if orderedKey(k) {
				return true
			}
		}
	}
	return false
}

// stageObject is what stage.Resolve reads of a target, its annotations
// located in the manifests.
func stageObject(t *target) stage.Object {
	o := stage.FromContent(t.ref.String(), "", t.obj.Object, nil)
	if t.src != nil {
		src := t.src
		o.File = src.File
		o.Pos = func(key string) (string, int, int) {
			p := src.Pos("metadata", "annotations", key)
			file := ""
			if f := src.FileOf("metadata", "annotations", key); f != src.File {
				file = f
			}
			return file, p.Line, p.Col
		}
	}
	return o
}

// placeStages places the changes of targets (changes[i] is targets[i]'s)
// in stages and plans the Argo CD hooks among them (markArgoHooks). It
// returns nil when no target carries an ordering annotation, and an
// Errors naming each annotation at fault (file:line:col) when the order
// cannot be followed: a cycle in change rules, a rule naming a group no
// object has, a value the vocabulary does not allow. replaced reports an
// update it turned into a replace.
//
// A Helm hook is a member of the PreSync stage of its weight only when it
// runs before the others in phase (helmhook.Hook.Pre: pre-install on an
// install), of the PostSync stage only when it runs after them; a stage
// left with no member is dropped.
func placeStages(targets []*target, changes []Change, ran map[string]string, phase string) (stages []Stage, replaced bool, err error) {
	if !ordered(targets) {
		return nil, false, nil
	}
	objs := make([]stage.Object, len(targets))
	for i, t := range targets {
		objs[i] = stageObject(t)
	}
	ord, probs := stage.Resolve(objs)
	if len(probs) > 0 {
		var errs Errors
		for _, p := range probs {
			errs = append(errs, &ObjectError{Ref: targets[p.Object].ref, Source: Source{File: p.File, Line: p.Line, Col: p.Col},
				Err: fmt.Errorf("%s (see docs/ordering.md)", p.Message)})
		}
		return nil, false, errs
	}
	replaced = markArgoHooks(changes, ord, ran)
	name := map[Ref]string{}
	add := func(s stage.Stage, onFail bool) {
		ps := Stage{Name: s.Name(), Phase: string(s.Phase), Wave: s.Wave, Step: s.Step, OnFail: onFail}
		for _, m := range s.Members {
			c := changes[m]
			if ord.Placements[m].Hook == stage.Helm && !helmRuns(helmhook.Of(c.Object), s.Phase, phase) {
				continue
			}
			ps.Members = append(ps.Members, c.Ref)
			if _, ok := name[c.Ref]; !ok {
				name[c.Ref] = ps.Name
			}
			if onFail || (c.Action != Unchanged && c.Action != Prune && c.Action != Release) {
				ps.WaitsFor = append(ps.WaitsFor, c.Ref.String()+" "+stage.Awaited(c.Ref.Group, c.Ref.Kind))
			}
		}
		if len(ps.Members) > 0 {
			stages = append(stages, ps)
		}
	}
	for _, s := range ord.Stages {
		add(s, false)
	}
	for _, s := range ord.OnFail {
		add(s, true)
	}
	for i := range changes {
		changes[i].Stage = name[changes[i].Ref]
	}
	return stages, replaced, nil
}

// helmRuns reports whether Helm hook h runs in the stage of phase ph on an
// apply of Helm phase helm ("install" or "upgrade").
func helmRuns(h helmhook.Hook, ph stage.Phase, helm string) bool {
	switch ph {
	case stage.PreSync:
		return h.Pre(helm)
	case stage.PostSync:
		return h.Post(helm)
	}
	return false
}

// markArgoHooks plans the Argo CD hooks and skipped objects of ord (the
// Helm hooks are markHooks'):
//   - an object a sync does not apply (argocd.argoproj.io/hook: Skip, a
//     PreDelete or PostDelete hook) is Unchanged, its Reason says why, and
//     it stays in the set;
//   - a SyncFail hook is Unchanged until a stage fails: apply then runs it
//     (created again when it exists, as its BeforeHookCreation says);
//   - a PreSync, Sync or PostSync hook is planned as the Helm hooks are:
//     one with HookSucceeded that the parent records as run with this
//     content is not created again; one updated in place with
//     BeforeHookCreation (the default) is replaced.
func markArgoHooks(changes []Change, ord stage.Order, ran map[string]string) (replaced bool) {
	skipped := map[int]bool{}
	for _, i := range ord.Skipped {
		skipped[i] = true
	}
	for i, p := range ord.Placements {
		c := &changes[i]
		if p.Hook == stage.Helm || c.Action == Prune || c.Action == Release {
			continue
		}
		if p.Hook == stage.ArgoCD {
			c.Hook = phaseList(p.Phases)
		}
		unchanged := func(reason string) {
			c.Action, c.Diff, c.Drift, c.AfterCRD, c.WaitsFor, c.Reason = Unchanged, "", nil, false, "", reason
		}
		switch {
		case p.Skip:
			unchanged("skipped: " + stage.HookAnnotation + ": " + stage.Skip + ", never applied")
		case skipped[i]:
			unchanged("skipped hook: " + c.Hook + " runs when an Argo CD Application is deleted; kubeplan never runs it")
		case p.Hook != stage.ArgoCD:
		case len(p.Phases) == 1 && p.Phases[0] == stage.SyncFail:
			unchanged("SyncFail hook: runs only when a stage fails")
		case c.Action == Create && p.Deletes(stage.DeleteSucceeded) && ranBefore(c, ran):
			unchanged("hook ran: deleted after it succeeded (" + stage.HookSucceeded + "); runs again when it changes")
		case c.Action == Update && p.Deletes(stage.DeleteBefore) && neverReplaced[c.Ref.Group+"/"+c.Ref.Kind] == "":
			c.Action, c.Reason = Replace, stage.DeletePolicyAnnotation+": "+stage.BeforeHookCreation
			replaced = true
		}
	}
	return replaced
}

// ranBefore reports whether the parent records c's hook as run with this
// content (helmhook.RanAnnotation, which Argo CD hooks share).
func ranBefore(c *Change, ran map[string]string) bool {
	d, ok := ran[helmhook.Key(c.Ref.Namespace, c.Ref.String())]
	return ok && d != "" && d == helmhook.Digest(c.Object)
}

func phaseList(ps []stage.Phase) string {
	s := make([]string, len(ps))
	for i, p := range ps {
		s[i] = string(p)
	}
	return strings.Join(s, ",")
}

// pruneStages names, for a staged plan, the stage each pruned or released
// member was in (from its live annotations) and orders the prunes in the
// reverse of the stages: apply prunes the last wave's objects first.
func pruneStages(changes []Change, members []*unstructured.Unstructured) {
	type place struct {
		name string
		rank int // phase, then wave, as the stages run
		wave int
	}
	pruned := map[Ref]bool{}
	for _, c := range changes {
		if c.Action == Prune || c.Action == Release {
			pruned[c.Ref] = true
		}
	}
	if len(pruned) == 0 {
		return
	}
	at := map[Ref]place{}
	for _, m := range members {
		gvk := m.GroupVersionKind()
		ref := Ref{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind, Namespace: m.GetNamespace(), Name: m.GetName()}
		if !pruned[ref] {
			continue
		}
		p, _ := stage.Read(stage.FromContent(ref.String(), "", m.Object, nil))
		ph := stage.Sync
		if len(p.Phases) > 0 {
			ph = p.Phases[0]
		}
		at[ref] = place{name: stage.Stage{Phase: ph, Wave: p.Wave}.Name(), rank: ph.Rank(), wave: p.Wave}
	}
	var idx []int
	for i, c := range changes {
		if c.Action != Prune && c.Action != Release {
			continue
		}
		if p, ok := at[c.Ref]; ok {
			changes[i].Stage = p.name
		}
		idx = append(idx, i)
	}
	block := make([]Change, len(idx))
	for j, i := range idx {
		block[j] = changes[i]
	}
	slices.SortStableFunc(block, func(a, b Change) int {
		pa, pb := at[a.Ref], at[b.Ref]
		return cmp.Or(cmp.Compare(pb.rank, pa.rank), cmp.Compare(pb.wave, pa.wave))
	})
	for j, i := range idx {
		changes[i] = block[j]
	}
}
