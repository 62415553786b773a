package plan

import (
	"fmt"

	"github.com/kubeplan/kubeplan/internal/guard"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// FormatVersion is the version of the saved plan format; see docs/plan-format.md.
const FormatVersion = 1

// FormatVersionWithheld is the version of a saved plan holding fields
// read by lookup as HiddenLookup (see Kept): a kubeplan that does not know
// them refuses the file instead of applying the stand-in. Plans without
// such fields stay FormatVersion.
const FormatVersionWithheld = 2

// Action is what applying the plan does to one object.
type Action string

const (
	Create Action = "create"
	Update Action = "update"
	// Replace deletes the live object and creates it again: the manifest
	// changes fields the server does not let change in place (Reason).
	Replace   Action = "replace"
	Unchanged Action = "unchanged"
	Prune     Action = "prune"
	// Release removes the ApplySet label from a member that left the set
	// but is protected from pruning (kubeplan.dev/prune: disabled): it
	// stays in the cluster and is no longer managed.
	Release Action = "release"
)

// Ref identifies an object in the cluster. It is kube.Ref, which health
// waits on without importing plan; the alias keeps the plan's callers (and
// its saved format) as they are.
type Ref = kube.Ref

// Source is where in the input an object was defined.
type Source struct {
	File string `json:"file"`
	Line int    `json:"line"`
	Col  int    `json:"column"`
}

func (s Source) String() string {
	if s.File == "" {
		return ""
	}
	return fmt.Sprintf("%s:%d:%d", s.File, s.Line, s.Col)
}

// Drift is a field whose live value was set by another field manager (a
// hand edit, an autoscaler) and that applying will take back.
type Drift struct {
	Field   string `json:"field"`   // "spec.replicas"
	Live    string `json:"live"`    // "6" (masked for Secrets)
	Want    string `json:"want"`    // "3"
	Manager string `json:"manager"` // "kubectl-scale"
}

// Change is the planned action for one object.
type Change struct {
	Ref    Ref    `json:"ref"`
	Action Action `json:"action"`
	// Reason says why an object is replaced: "spec.selector is immutable".
	Reason string `json:"reason,omitempty"`
	// Source is where the object is defined; empty for prunes.
	Source Source `json:"source,omitempty"`
	// Diff is a unified diff of the live object against the object as it
	// will be, normalized (no managedFields, resourceVersion, status, ...)
	// and with Secret values masked. Empty when nothing changes. For a
	// create, the object as it will be is the manifest as written
	// (Options.ShowDefaults: the server's version); a replace compares the
	// fields the field manager applied, as they are live, with the manifest.
	Diff string `json:"diff,omitempty"`
	// Drift lists fields changed in the cluster by someone else.
	Drift []Drift `json:"drift,omitempty"`
	// AfterCRD is true for an object that could not be dry-run because
	// what it needs does not exist yet: a custom resource whose CRD the
	// same plan or a project it depends on creates, or an object in a
	// namespace such a project creates (Options.Pending). It will be
	// created after them.
	AfterCRD bool `json:"afterCRD,omitempty"`
	// WaitsFor, for an AfterCRD object, names what it waits for: "its
	// CustomResourceDefinition", "Namespace team-a", or both joined by
	// "and"; see After.
	WaitsFor string `json:"waitsFor,omitempty"`
	// LiveResourceVersion is the live object's resourceVersion when the plan
	// was made ("" when it did not exist): a saved plan is refused when it
	// moved.
	LiveResourceVersion string `json:"liveResourceVersion,omitempty"`
	// LiveGeneration is the live object's metadata.generation, for the kinds
	// that keep one (a spec with a status beside it): a plan is stale when
	// it moved, not when only a controller's status update moved the
	// resourceVersion.
	LiveGeneration int64 `json:"liveGeneration,omitempty"`
	// LiveUID is the live object's uid when the plan was made: a prune or
	// release never touches an object recreated since under the same name.
	LiveUID string `json:"liveUID,omitempty"`
	// Owner names who else owns the live object an update or replace takes
	// over: "ApplySet configmap/other-set", "Helm release shop in store",
	// "Flux Kustomization apps in flux-system", "Argo CD application shop".
	// Applying refuses it unless adopting (apply.CheckOwners).
	Owner string `json:"owner,omitempty"`
	// Hook is the object's Helm hook events when it is one
	// ("pre-install,pre-upgrade", see helmhook.Of): apply runs it before or
	// after the other objects. A hook this run does not run is Unchanged,
	// with a Reason beginning "skipped hook".
	Hook string `json:"hook,omitempty"`
	// Stage is the name of the stage the change is written in (its first,
	// for a hook of several phases; Plan.Stages): "wave -1", "PreSync
	// hooks". For a prune, the stage the live object was in: prunes run
	// after the last wave, in the reverse of the stages (the plan lists
	// them in that order). Empty when the plan has no stages.
	Stage string `json:"stage,omitempty"`
	// Decrypted is true for an object read from a SOPS-encrypted file and
	// decrypted in memory, or holding a value decrypted from one (copied
	// by a kustomize replacement, generator or patch): Save and
	// run.SaveDir refuse a plan holding one, so decrypted values never
	// reach a file.
	Decrypted bool `json:"decrypted,omitempty"`
	// Kept are the fields of a chart's object the plan keeps live or
	// hides (see Kept): generated values it keeps, and values derived
	// from a Secret the chart looked up, never shown.
	Kept []Kept `json:"kept,omitempty"`
	// Object is the object as it will be applied. It carries Secret values
	// in the clear, so renderers never print it; it is kept for saved plans.
	Object map[string]any `json:"object,omitempty"`
	// APIWarnings are the warnings the API server returned with the
	// object's dry-run, each once, as it wrote them: a deprecated API, a
	// pod template its namespace's Pod Security warn level refuses, an
	// unknown or duplicate field. Informational: a kubeplan that does not
	// know them applies the plan the same, so they need no new version.
	APIWarnings []string `json:"apiWarnings,omitempty"`
	// Paths are the changed field paths of an update or replace
	// (ChangedPaths), recorded only when a guard rule reads them.
	Paths []string `json:"paths,omitempty"`
	// RollsFor names the ConfigMaps and Secrets of the set whose changed
	// data makes an update's pod template roll ("configmap/settings";
	// Options.RollOnConfigChange). Informational, like APIWarnings.
	RollsFor []string `json:"rollsFor,omitempty"`

	// planned is the dry-run's object as it will be, kept for the guard
	// rules until the plan is judged (never saved).
	planned map[string]any
}

// Parent is the ApplySet parent the plan was computed against.
type Parent struct {
	Ref             Ref    `json:"ref"`
	ID              string `json:"id"`
	Exists          bool   `json:"exists"`
	ResourceVersion string `json:"resourceVersion,omitempty"`
	// Revision and Result are what the last apply recorded on the parent.
	Revision string `json:"revision,omitempty"`
	Result   string `json:"result,omitempty"`
	// CheckedAt is when a run last compared the set (RFC 3339).
	CheckedAt string `json:"checkedAt,omitempty"`
	// Suspended is the parent's suspension (kubeplan suspend), nil when
	// the project is not suspended: no apply writes to it.
	Suspended *Suspension `json:"suspended,omitempty"`
}

// Plan is everything applying a set would do, and what it was computed from.
type Plan struct {
	Version      int      `json:"version"`
	Namespace    string   `json:"namespace"`
	FieldManager string   `json:"fieldManager"`
	Parent       *Parent  `json:"applyset,omitempty"`
	Revision     string   `json:"revision,omitempty"` // source revision, when known
	Changes      []Change `json:"changes"`
	// Warnings are what applying the plan will not fix: pods that will
	// not start for a reference nothing provides.
	Warnings []Warning `json:"warnings,omitempty"`
	// Stages are the steps an apply runs in order (see Stage), then the
	// SyncFail stages (OnFail); empty when no object carries an ordering
	// annotation.
	Stages []Stage `json:"stages,omitempty"`
	// Guards are the verdicts of the rules over what the plan does
	// (internal/guard): denies, then require-approval (with the approval
	// that lets each through, once found), then warnings; empty when no
	// rule applies.
	Guards []guard.Verdict `json:"guards,omitempty"`
	// Window is the project's change windows at the time of the plan,
	// when it is closed (nil when open or when it has none).
	Window *guard.WindowState `json:"window,omitempty"`
}

// Warning is a problem the plan found that applying does not fix.
type Warning struct {
	// Ref is the object the warning is about.
	Ref Ref `json:"ref"`
	// Source is the field at fault, in the manifests.
	Source  Source `json:"source,omitempty"`
	Message string `json:"message"`
}

// Summary counts the changes of a plan by action.
type Summary struct {
	Add       int `json:"add"`
	Change    int `json:"change"`
	Replace   int `json:"replace"`
	Prune     int `json:"prune"`
	Release   int `json:"release,omitempty"`
	Unchanged int `json:"unchanged"`
	Drifted   int `json:"drifted"`
}

// Summary counts the plan's changes.
func (p *Plan) Summary() Summary {
	var s Summary
	for _, c := range p.Changes {
		switch c.Action {
		case Create:
			s.Add++
		case Update:
			s.Change++
		case Replace:
			s.Replace++
		case Prune:
			s.Prune++
		case Release:
			s.Release++
		case Unchanged:
			s.Unchanged++
		}
		if len(c.Drift) > 0 {
			s.Drifted++
		}
	}
	return s
}

// String is the summary line users know from Terraform:
// "Plan: 1 to add, 2 to change, 1 to prune, 5 unchanged." Replacements are
// named only when there are some ("..., 2 to change, 1 to replace, 1 to
// prune, ..."), and so are releases ("..., 1 to prune, 1 to release, ..."),
// so plans without them read as they always did.
func (s Summary) String() string {
	replace, release := "", ""
	if s.Replace > 0 {
		replace = fmt.Sprintf("%d to replace, ", s.Replace)
	}
	if s.Release > 0 {
		release = fmt.Sprintf("%d to release, ", s.Release)
	}
	return fmt.Sprintf("Plan: %d to add, %d to change, %s%d to prune, %s%d unchanged.", s.Add, s.Change, replace, s.Prune, release, s.Unchanged)
}

// HasChanges reports whether applying would write anything.
func (p *Plan) HasChanges() bool {
	s := p.Summary()
	return s.Add+s.Change+s.Replace+s.Prune+s.Release > 0
}

// After names what an AfterCRD change waits for (WaitsFor; a plan saved
// before it was recorded waits for its CustomResourceDefinition); "" for
// any other change.
func (c Change) After() string {
	switch {
	case !c.AfterCRD:
		return ""
	case c.WaitsFor != "":
		return c.WaitsFor
	}
	return WaitsForCRD
}

// WaitsForCRD is what a custom resource whose CRD is not served yet waits
// for.
const WaitsForCRD = "its CustomResourceDefinition"
