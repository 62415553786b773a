package plan

import (
	"context"
	"sort"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/manifest"
)

// Options control how a plan is made.
type Options struct {
	// Namespace is where namespaced objects without a namespace go (-n).
	Namespace string
	// FieldManager is the server-side apply field manager (default kubeplan).
	FieldManager string
	// ApplySet is the set's parent; nil plans without a prune preview.
	ApplySet *applyset.Parent
	// Adopt allows a parent made by other tooling (kubectl) to be taken over.
	Adopt bool
	// AllowOtherNamespaces lets objects name namespaces other than Namespace.
	AllowOtherNamespaces bool
	// Concurrency bounds the requests in flight (default 16).
	Concurrency int
	// Revision is the source revision the objects were read at, if known.
	Revision string
	// ShowDefaults makes a create's diff the server's dry-run result, with
	// every default it fills in; by default it is the manifest as written.
	ShowDefaults bool
	// Progress, when set, is told how many objects are planned so far, as
	// each is (serialised; render.Progress shows it).
	Progress func(done, total int)
	// StrictRefs makes a dangling reference of a pod template (a Secret,
	// ConfigMap, ServiceAccount or PVC neither the set nor the cluster
	// has) an error instead of a warning (Plan.Warnings).
	StrictRefs bool
	// Pending is what a project this one depends on creates before it is
	// applied (see PendingOf): objects of those kinds or in those
	// namespaces cannot be dry-run yet and are planned as created after
	// them.
	Pending Pending
	// SecretDataWithheld says the charts were rendered without the data
	// of the Secrets their lookups read (helm.Options
	// WithholdSecretData, plan): a field marked KeptLookedUp holds a
	// placeholder, which is never applied: Change.Object holds
	// HiddenLookup there (apply of a saved plan reads it live again, see
	// FillWithheld). Such fields are shown hidden whatever this says.
	SecretDataWithheld bool
	// Guards are the rules that judge what the plan does (Plan.Guards)
	// and the project's change windows (Plan.Window).
	Guards GuardOptions
	// Namespaces reads the live Namespaces the objects go to (nil: a new
	// reader): the run passes the one lint's pod-security rule read, so
	// each is read once.
	Namespaces *Namespaces
	// ReadAhead are reads made for many projects at once (plan --all;
	// nil: none): the parent, the members and the autoscalers are taken
	// from it where it has them. Give Namespaces the same (NewNamespaces).
	ReadAhead *ReadAhead
	// RollOnConfigChange writes into each pod template a digest of the
	// set's ConfigMaps and Secrets it reads, so that its pods roll when
	// their data changes (roll.go, Change.RollsFor).
	RollOnConfigChange bool
	// Yield are the fields left to other controllers (yield.go).
	Yield config.Yield
}

type planner struct {
	c    *kube.Client
	opts Options
}

// Make computes the plan for objs against the cluster c. It writes nothing:
// every request is a read, an access review or a dry-run. Problems with
// individual objects are returned together as Errors; missing permissions
// as *MissingPermissions.
func Make(ctx context.Context, c *kube.Client, objs []*manifest.Object, opts Options) (*Plan, error) {
	if opts.FieldManager == "" {
		opts.FieldManager = "kubeplan"
	}
	if opts.Concurrency <= 0 {
		opts.Concurrency = 16
	}
	if opts.Namespace == "" {
		opts.Namespace = c.Namespace
	}
	if opts.Namespaces == nil {
		opts.Namespaces = NewNamespaces(c, opts.ReadAhead)
	}
	p := &planner{c: c, opts: opts}
	targets, err := p.prepare(objs)
	if err != nil {
		return nil, err
	}
	if err := p.checkNamespaces(ctx, targets); err != nil {
		return nil, err
	}
	set, err := p.preflightAndReadSet(ctx, targets)
	if err != nil {
		return nil, err
	}
	if set != nil {
		for _, t := range targets {
			labels := t.obj.GetLabels()
			if labels == nil {
				labels = map[string]string{}
			}
			labels[applyset.LabelPartOf] = set.parent.ID
			t.obj.SetLabels(labels)
		}
	}
	live, err := p.readLive(ctx, targets, set)
	if err != nil {
		return nil, err
	}
	if err := p.keep(targets, live); err != nil {
		return nil, err
	}
	p.keepPartOf(targets, live)
	if err := p.leaveYielded(ctx, targets, live); err != nil {
		return nil, err
	}
	rolls, err := p.rollOnConfigChange(targets, live)
	if err != nil {
		return nil, err
	}
	changes, err := p.dryRunAll(ctx, targets, live)
	if err != nil {
		return nil, err
	}
	var parent *Parent
	var ran map[string]string
	if set != nil {
		parent, ran = &set.parent, set.hooksRan
	}
	replaced := markHooks(changes, hookPhase(parent), ran)
	stages, argoReplaced, err := placeStages(targets, changes, ran, hookPhase(parent))
	if err != nil {
		return nil, err
	}
	if replaced || argoReplaced {
		if err := p.checkReplacePermissions(ctx, targets, changes); err != nil {
			return nil, err
		}
	}
	p.recordOwners(ctx, set, targets, live, changes)
	pl := &Plan{Version: FormatVersion, Namespace: opts.Namespace, FieldManager: opts.FieldManager, Revision: opts.Revision, Changes: changes, Stages: stages}
	if set != nil {
		pl.Parent = &set.parent
		pl.Changes = append(pl.Changes, set.prunes(targets)...)
	}
	sortChanges(pl.Changes)
	rolls.explain(pl.Changes)
	if stages != nil && set != nil {
		pruneStages(pl.Changes, set.members)
	}
	if pl.Warnings, err = p.danglingRefs(ctx, targets, pl.Changes); err != nil {
		return nil, err
	}
	if err := p.opts.Guards.judgeAll(pl, targets, live, set); err != nil {
		return nil, err
	}
	if err := hideDecrypted(pl); err != nil {
		return nil, err
	}
	return pl, nil
}

var actionOrder = map[Action]int{Create: 0, Update: 1, Replace: 2, Prune: 3, Release: 4, Unchanged: 5}

func sortChanges(cs []Change) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i], cs[j]
		if actionOrder[a.Action] != actionOrder[b.Action] {
			return actionOrder[a.Action] < actionOrder[b.Action]
		}
		if a.Ref.Namespace != b.Ref.Namespace {
			return a.Ref.Namespace < b.Ref.Namespace
		}
		return a.Ref.String() < b.Ref.String()
	})
}
