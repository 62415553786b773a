package apply

import (
	"github.com/kubeplan/kubeplan/internal/guard"

	"time"

	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/healthexpr"
)

// Options control an apply.
type Options struct {
	FieldManager string
	ApplySet     *applyset.Parent
	// Version is kubeplan's version, recorded in the parent's tooling.
	Version string
	// Concurrency bounds the writes in flight (default 16).
	Concurrency int
	// AllowEmpty allows an apply whose set is empty to prune every member.
	AllowEmpty bool
	// Wait for every applied object to be healthy, up to Timeout.
	Wait    bool
	Timeout time.Duration
	// NoFailFast waits for every object until Timeout even when its pods
	// show a signal that waiting will not heal (health.WaitOptions.FailFast,
	// which apply turns on otherwise). Either way a failed or timed-out
	// workload gets a health.Diagnosis: why, read from its pods, events
	// and logs, Secret values masked.
	NoFailFast bool
	// Deadline, when set, ends the whole run: writes, prune and wait stop
	// there (the record on the parent has a deadline of its own).
	Deadline time.Time
	// LockDuration is the apply lock's Lease duration (default 60s).
	LockDuration time.Duration
	// Stop, when closed, ends the health wait early, as the end of ctx
	// does (the run is recorded as failed); writes under way finish, and
	// nothing else is cut short. kubeplan serve closes it on SIGTERM.
	Stop <-chan struct{}
	// CheckedEvery is how often a run that finds nothing to do records its
	// checked-at time on the parent (default one minute); negative means
	// never, so that such a run makes no write at all (kubeplan serve,
	// whose metrics say when it last checked).
	CheckedEvery time.Duration
	// Progress, when set, is told which objects the health wait still waits
	// for (the callers' own view). Reporter, when set, replaces it.
	Progress func(pending []health.Result)
	// Reporter, when set, is told the progress of every phase that writes
	// or waits (writing, pruning, waiting) and the objects still waited
	// for (render.Progress is its view).
	Reporter Progress
	// Revision is recorded on the parent with the time and result.
	Revision string
	// Replace lists the objects a plan may replace (delete and create again
	// because an immutable field changes), as KIND/NAME or KIND.GROUP/NAME
	// ("deployment/web", "Deployment.apps/web", "deployments/web"). Objects
	// annotated kubeplan.dev/replace: allow in the manifests need not be
	// listed. Timeout, when set, also bounds the wait for each deletion.
	Replace []string
	// Adopt allows the plan to take over objects that belong to another
	// ApplySet, a Helm release, Flux or Argo CD (plan.Change.Owner).
	Adopt bool
	// Approvals let require-approval verdicts (plan.Plan.Guards) through
	// (--approve RULE=REASON, a GitHub review or label): a verdict none
	// names refuses the apply (guard.Refusal) unless Withhold; a deny
	// verdict always refuses it.
	Approvals []guard.Approval
	// Windows are the project's change windows: an apply while they are
	// closed is refused unless Override.
	Windows *guard.Schedule
	// Override lets an apply outside the windows through, recorded with
	// its reason (--outside-window REASON).
	Override *guard.Override
	// IgnoreSuspend applies a suspended set (kubeplan suspend), recorded
	// with its reason (--ignore-suspend REASON); without it such an apply
	// is refused (CheckSuspended).
	IgnoreSuspend *guard.Override
	// Withhold (serve, which never approves) applies what pending
	// approvals are not about when that is safe (they are all about
	// prunes: those prunes are Withheld), and nothing otherwise.
	Withhold bool
	// Health are the health rules in CEL the wait judges custom resources
	// by (kubeplan.yaml's health:, health.WaitOptions.Rules); nil is the
	// built-in rules alone.
	Health *healthexpr.Set

	// guards is what CheckGuards decided, once Reconcile has asked.
	guards *GuardDecision
}

// Outcome is what happened to one object.
type Outcome string

const (
	Created    Outcome = "created"
	Configured Outcome = "configured"
	Unchanged  Outcome = "unchanged"
	Pruned     Outcome = "pruned"
	Replaced   Outcome = "replaced" // deleted and created again
	// Released: a member protected from pruning left the set; it stays in
	// the cluster without the ApplySet label.
	Released Outcome = "kept, no longer managed (prune disabled)"
	// Skipped: a prune or release found the object no longer in the set
	// (ObjectResult.Detail says where it went) and left it alone.
	Skipped Outcome = "skipped"
	// Withheld is a prune a pending approval holds back (Options.Withhold):
	// the object stays, a member of the set, until a run is approved.
	Withheld Outcome = "withheld, awaiting approval"
)
