package arguments

import (
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/spf13/pflag"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/render"
)

// Apply is kubeplan apply's command line.
type Apply struct {
	Input       Input
	Git         Git
	Cluster     Cluster
	Select      Select
	Output      string
	Wait        bool
	FailFast    bool
	Timeout     time.Duration
	AllowEmpty  bool
	Interval    time.Duration
	Drift       string
	AutoApprove bool
	Replace     []string
	Comment     bool
	// Approve holds --approve RULE=REASON, as given; OutsideWindow
	// --outside-window REASON.
	Approve       []string
	OutsideWindow string
	// IgnoreSuspend is --ignore-suspend REASON.
	IgnoreSuspend string

	approvals []guard.Approval
}

// Bind adds apply's flags.
func (f *Apply) Bind(fl *pflag.FlagSet) {
	f.Input.Bind(fl)
	f.Input.BindDecrypt(fl)
	f.Cluster.Bind(fl)
	f.Git.Bind(fl, "apply")
	fl.StringVarP(&f.Output, "output", "o", "text", "output format: "+strings.Join(render.ApplyFormats(), ", "))
	fl.BoolVar(&f.Wait, "wait", true, "wait until the applied objects are healthy")
	fl.BoolVar(&f.FailFast, "fail-fast", true, "end the health wait as soon as a pod shows a failure that waiting will not heal (false: wait until --timeout)")
	fl.DurationVar(&f.Timeout, "timeout", 5*time.Minute, "bounds the whole run: plan, writes, prune and the health wait")
	fl.BoolVar(&f.AllowEmpty, "allow-empty", false, "allow an empty manifest set to prune every member of the ApplySet")
	fl.DurationVar(&f.Interval, "interval", 0, "keep reconciling at this interval until stopped (SIGTERM finishes the current run)")
	fl.StringVar(&f.Drift, "drift", "repair", "repair: apply; report: only plan and exit 2 when the cluster differs")
	fl.BoolVar(&f.AutoApprove, "auto-approve", false, "do not ask before writing (apply never asks outside a terminal or with CI=true)")
	f.Select.Bind(fl, "apply")
	fl.BoolVar(&f.Comment, "comment", true, "in GitHub Actions on a pull_request event with a token: update the plan comment on the pull request with the apply and why it failed")
	fl.StringArrayVar(&f.Approve, "approve", nil, "approve the changes a guard rule holds for approval, with a reason recorded on the ApplySet parent: RULE=REASON, e.g. protect-pvc=\"data migrated to db-v2\" (repeatable)")
	fl.StringVar(&f.OutsideWindow, "outside-window", "", "apply although the project's change windows are closed, with this reason (recorded on the ApplySet parent)")
	fl.StringVar(&f.IgnoreSuspend, "ignore-suspend", "", "apply although the project is suspended (kubeplan suspend), with this reason (recorded on the ApplySet parent)")
	fl.StringArrayVar(&f.Replace, "replace", nil, "replace this object (KIND/NAME, e.g. deployment/web) when a change to an immutable field needs it (repeatable)")
}

// Check refuses an unknown --output or --drift, and --source with paths
// (Git.Check).
func (f *Apply) Check(args []string) error {
	if !slices.Contains(render.ApplyFormats(), f.Output) {
		return fmt.Errorf("unknown --output %q: want one of %s", f.Output, strings.Join(render.ApplyFormats(), ", "))
	}
	if f.Drift != "repair" && f.Drift != "report" {
		return fmt.Errorf("unknown --drift %q: want repair or report", f.Drift)
	}
	f.approvals = nil
	for _, s := range f.Approve {
		a, err := guard.ParseApproval(s)
		if err != nil {
			return fmt.Errorf("--approve %q: %w", s, err)
		}
		f.approvals = append(f.approvals, a)
	}
	if f.OutsideWindow != "" && strings.TrimSpace(f.OutsideWindow) == "" {
		return fmt.Errorf("--outside-window needs a reason, e.g. --outside-window \"hotfix for INC-123\"")
	}
	if f.IgnoreSuspend != "" && strings.TrimSpace(f.IgnoreSuspend) == "" {
		return fmt.Errorf("--ignore-suspend needs a reason, e.g. --ignore-suspend \"hotfix for INC-123\"")
	}
	return f.Git.Check(args)
}

// Approvals are --approve's approvals (Check parsed them), each By who
// runs kubeplan (by, "" when unknown).
func (f *Apply) Approvals(by string) []guard.Approval {
	out := make([]guard.Approval, len(f.approvals))
	for i, a := range f.approvals {
		a.By = by
		out[i] = a
	}
	return out
}

// Override is --outside-window's override, nil without it.
func (f *Apply) Override(by string) *guard.Override {
	if strings.TrimSpace(f.OutsideWindow) == "" {
		return nil
	}
	return &guard.Override{Reason: strings.TrimSpace(f.OutsideWindow), By: by}
}

// IgnoreSuspendOverride is --ignore-suspend's override, nil without it.
func (f *Apply) IgnoreSuspendOverride(by string) *guard.Override {
	if strings.TrimSpace(f.IgnoreSuspend) == "" {
		return nil
	}
	return &guard.Override{Reason: strings.TrimSpace(f.IgnoreSuspend), By: by}
}

// Report says --drift=report: only plan, exit 2 on changes, record nothing.
func (f *Apply) Report() bool { return f.Drift == "report" }

// Asks says whether apply asks before writing: when stdin is a terminal
// a person answers, CI is not "true", and neither --auto-approve nor
// --interval says otherwise (a saved plan, reviewed when it was made, is
// never asked about; nor is a run without changes).
func (f *Apply) Asks(terminal bool, ci string) bool {
	return terminal && !f.AutoApprove && f.Interval <= 0 && ci != "true"
}

// ApplyOptions are the apply settings every project of a run shares:
// version is kubeplan's, lock the apply lock's Lease duration (0: the
// default), deadline the end of the run (--timeout from its start).
func (f *Apply) ApplyOptions(version string, lock time.Duration, deadline time.Time) apply.Options {
	return apply.Options{FieldManager: f.Cluster.FieldManager, Version: version, Concurrency: f.Cluster.Concurrency,
		AllowEmpty: f.AllowEmpty, Wait: f.Wait, NoFailFast: !f.FailFast, Timeout: f.Timeout, Deadline: deadline, Replace: f.Replace,
		LockDuration: lock, Adopt: f.Cluster.Adopt}
}

// LockDuration is the Lease duration of the apply lock: $KUBEPLAN_LOCK_DURATION
// when it is a duration of a second or more (for the fault tests, which
// stop a holder past its Lease), else 0 (apply's default, 60s).
func LockDuration(env func(string) string) time.Duration {
	d, err := time.ParseDuration(env("KUBEPLAN_LOCK_DURATION"))
	if err != nil || d < time.Second {
		return 0
	}
	return d
}
