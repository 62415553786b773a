package plan

import (
	"fmt"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/guard"
)

// GuardOptions say which rules judge what a plan does (internal/guard)
// and what the rules know of the project.
type GuardOptions struct {
	// Rules are the compiled rules; nil judges nothing.
	Rules *guard.Set
	// Project and Cluster name the project and its cluster, as
	// kubeplan.yaml does ("" for a plain invocation and the command
	// line's cluster).
	Project, Cluster string
	// Files are the project's paths in the repository: the files of a
	// prune (which no manifest defines any more) and of a plan verdict.
	Files []string
	// Checkout is the repository's root: Files and the changes' source
	// files are made relative to it, as CODEOWNERS paths are ("" leaves
	// them as they are).
	Checkout string
	// Windows are the project's change windows; Now the time to look at
	// them (zero: the time of the plan).
	Windows *guard.Schedule
	Now     time.Time
}

// judgeAll records the changed paths when a rule reads them, then
// judges the plan (judge) and looks at the change windows (Plan.Window).
func (o GuardOptions) judgeAll(pl *Plan, targets []*target, live map[*target]*unstructured.Unstructured, set *applySet) error {
	if st := o.Windows.At(o.now()); !st.Open {
		pl.Window = &st
	}
	if o.Rules == nil {
		return nil
	}
	var members []*unstructured.Unstructured
	if set != nil {
		members = set.members
	}
	planned := map[string]map[string]any{}
	byRef := map[string]*target{}
	for _, t := range targets {
		byRef[t.ref.String()+"@"+t.ref.Namespace] = t
	}
	for i := range pl.Changes {
		c := &pl.Changes[i]
		k := c.Ref.String() + "@" + c.Ref.Namespace
		if c.planned == nil {
			continue
		}
		planned[k] = c.planned
		c.planned = nil
		// An update's paths were found with its dry-run; a replace's
		// (rare) here.
		if t := byRef[k]; t != nil && live[t] != nil && o.Rules.NeedsPaths() && c.Action == Replace {
			c.Paths = ChangedPaths(live[t].Object, planned[k])
		}
	}
	var before, after []map[string]any
	if o.Rules.NeedsObjects() {
		before, after = objectsOf(pl, live, targets, members, planned)
	}
	return o.judge(pl, before, after, len(members))
}

func (o GuardOptions) now() time.Time {
	if !o.Now.IsZero() {
		return o.Now
	}
	return time.Now()
}

// ActionAdopt is the action a rule sees for an update or replace of an
// object another owner manages (Change.Owner).
const ActionAdopt = "adopt"

// judge evaluates the rules over the plan's changes: before is the live
// object of each change (nil for a create), after the object as the
// dry-run says it will be (nil for a prune). It sets pl.Guards.
func (o GuardOptions) judge(pl *Plan, before, after []map[string]any, members int) error {
	if o.Rules == nil {
		return nil
	}
	in := GuardInput(pl, o, before, after, members)
	vs, err := o.Rules.Evaluate(in.Plan, in.Changes)
	if err != nil {
		return fmt.Errorf("guard rules: %w", err)
	}
	pl.Guards = vs
	return nil
}

// GuardInputs are what the rules see of a plan.
type GuardInputs struct {
	Plan    guard.Plan
	Changes []guard.Change
}

// GuardInput builds what the rules see of pl: one guard.Change per change
// that writes (unchanged objects are left out), with before and after
// (aligned with pl.Changes, nil where unknown) when a rule reads them, and
// never for a Secret; the changed field paths when a rule reads them
// (Change.Paths, as the plan recorded them); and the plan's counts.
// members is the number of live members of the set.
func GuardInput(pl *Plan, o GuardOptions, before, after []map[string]any, members int) GuardInputs {
	objects := o.Rules != nil && o.Rules.NeedsObjects()
	gp := guard.Plan{Project: o.Project, Cluster: o.Cluster, Namespace: pl.Namespace,
		Counts: map[string]int64{}, Kinds: map[string]map[string]int64{}, Members: int64(members), Files: o.Files}
	if pl.Parent != nil {
		gp.ApplySet = pl.Parent.Ref.String()
	}
	for _, a := range []Action{Create, Update, Replace, Prune, Release} {
		gp.Counts[string(a)] = 0
	}
	gp.Counts[ActionAdopt] = 0
	var cs []guard.Change
	for i, c := range pl.Changes {
		if c.Action == Unchanged {
			continue
		}
		action := string(c.Action)
		if c.Owner != "" && (c.Action == Update || c.Action == Replace) {
			action = ActionAdopt
		}
		gp.Counts[action]++
		if gp.Kinds[c.Ref.Kind] == nil {
			gp.Kinds[c.Ref.Kind] = map[string]int64{}
		}
		gp.Kinds[c.Ref.Kind][action]++
		gc := guard.Change{Action: action, Group: c.Ref.Group, Version: c.Ref.Version, Kind: c.Ref.Kind,
			Namespace: c.Ref.Namespace, Name: c.Ref.Name, Project: o.Project, Cluster: o.Cluster,
			Paths: c.Paths, Object: c.Ref.String(), Files: o.Files}
		if c.Source.File != "" {
			gc.Files = []string{o.RepoPath(c.Source.File)}
		}
		if objects && !(c.Ref.Group == "" && c.Ref.Kind == "Secret") && !c.Decrypted {
			if i < len(before) {
				gc.Before = before[i]
			}
			if i < len(after) {
				gc.After = after[i]
			}
		}
		cs = append(cs, gc)
	}
	if members > 0 {
		gp.PrunedFraction = float64(gp.Counts[string(Prune)]) / float64(members)
	}
	return GuardInputs{Plan: gp, Changes: cs}
}

// objectsOf returns, aligned with pl.Changes, the live object and the
// object as it will be of each change: the dry-run results (planned, by
// Ref) and the live objects of the targets and of the set's members.
func objectsOf(pl *Plan, live map[*target]*unstructured.Unstructured, targets []*target, members []*unstructured.Unstructured, planned map[string]map[string]any) (before, after []map[string]any) {
	byKey := map[string]map[string]any{}
	for t, l := range live {
		if l != nil {
			byKey[t.ref.String()+"@"+t.ref.Namespace] = l.Object
		}
	}
	for _, m := range members {
		gvk := m.GroupVersionKind()
		r := Ref{Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind, Namespace: m.GetNamespace(), Name: m.GetName()}
		if _, ok := byKey[r.String()+"@"+r.Namespace]; !ok {
			byKey[r.String()+"@"+r.Namespace] = m.Object
		}
	}
	before = make([]map[string]any, len(pl.Changes))
	after = make([]map[string]any, len(pl.Changes))
	for i, c := range pl.Changes {
		k := c.Ref.String() + "@" + c.Ref.Namespace
		if c.Action != Create {
			before[i] = byKey[k]
		}
		if c.Action != Prune {
			after[i] = planned[k]
			if after[i] == nil {
				after[i] = c.Object
			}
		}
	}
	return before, after
}

// ChangedPaths are the field paths whose values differ between the
// normalized live object and the object as it will be: leaves
// ("spec.replicas"), list items by index ("spec.template.spec.containers[0].image")
// while the lists keep their length, a whole list when it does not.
// Secret values are compared masked, so paths say nothing of them.
func ChangedPaths(live, want map[string]any) []string {
	l, w := normalizeMasked(live, want)
	var out []string
	diffPaths("", l, w, &out)
	slices.Sort(out)
	return out
}

func diffPaths(at string, a, b any, out *[]string) {
	switch av := a.(type) {
	case map[string]any:
		bv, ok := b.(map[string]any)
		if !ok {
			break
		}
		for k, x := range av {
			diffPaths(join(at, k), x, bv[k], out)
		}
		for k, y := range bv {
			if _, seen := av[k]; !seen {
				diffPaths(join(at, k), nil, y, out)
			}
		}
		return
	case []any:
		bv, ok := b.([]any)
		if !ok || len(av) != len(bv) {
			break
		}
		for i := range av {
			diffPaths(at+"["+strconv.Itoa(i)+"]", av[i], bv[i], out)
		}
		return
	}
	if !equalValue(a, b) && at != "" {
		*out = append(*out, at)
	}
}

func join(at, k string) string {
	if at == "" {
		return k
	}
	return at + "." + k
}

// RepoPath is file relative to the checkout, with "/"; file as it is
// when there is no checkout or it lies outside it.
func (o GuardOptions) RepoPath(file string) string {
	if o.Checkout == "" {
		return file
	}
	abs, err := filepath.Abs(file)
	if err != nil {
		return file
	}
	root, err := filepath.Abs(o.Checkout)
	if err != nil {
		return file
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return filepath.ToSlash(rel)
}
