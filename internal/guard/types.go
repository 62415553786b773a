package guard

import "time"

// Outcome is what a rule's verdict does to an apply.
type Outcome string

const (
	// Deny refuses the apply: no approval or flag lets it through.
	Deny Outcome = "deny"
	// RequireApproval refuses the apply until an Approval names the rule.
	RequireApproval Outcome = "require-approval"
	// Warn is shown in the plan and changes nothing.
	Warn Outcome = "warn"
	// Off switches a rule off (configuration only; never a verdict).
	Off Outcome = "off"
)

// Scope says what a rule is evaluated over.
type Scope string

const (
	// ScopeChange rules are evaluated once per change, with `change` and
	// `plan` bound (the default).
	ScopeChange Scope = "change"
	// ScopePlan rules are evaluated once per plan, with only `plan` bound.
	ScopePlan Scope = "plan"
)

// The built-in rules' names (Builtins).
const (
	ProtectPVC       = "protect-pvc"
	ProtectNamespace = "protect-namespace"
	ProtectCRD       = "protect-crd"
	MassPrune        = "mass-prune"
)

// Pos is a line and column (1-based) in the file a rule was read from.
type Pos struct{ Line, Col int }

// Rule is one rule as written in kubeplan.yaml or a rules file it names.
type Rule struct {
	// Name is the rule's id: verdicts carry it and --approve names it.
	Name string
	// Scope is ScopeChange ("" means it) or ScopePlan.
	Scope Scope
	// Expression is CEL that yields a bool: true means the rule applies.
	Expression string
	// Outcome is Deny, RequireApproval or Warn.
	Outcome Outcome
	// Message is a fixed message; MessageExpression, CEL that yields a
	// string, wins when set and it evaluates.
	Message           string
	MessageExpression string
	// File is where the rule was read; Pos says where each key's value
	// is, by its name in the file ("name", "expression", "outcome",
	// "messageExpression", ...), and At where the rule starts.
	File string
	Pos  map[string]Pos
	At   Pos
}

// Config is what kubeplan.yaml says about rules over plans (its guards:
// key).
type Config struct {
	// Rules are the user's rules, in file order (those of kubeplan.yaml,
	// then those of each file it names).
	Rules []Rule
	// Builtin maps a built-in rule's name to its outcome when the file
	// changes it: Off switches it off. BuiltinPos says where each entry is.
	Builtin    map[string]Outcome
	BuiltinPos map[string]Pos
	// Approvals are the GitHub approvals that count.
	Approvals Approvals
	// File is the config's file, for BuiltinPos.
	File string
}

// Change is one planned change as a change rule sees it: the CEL variable
// `change`.
type Change struct {
	// Action is create, update, replace, prune, adopt (an update or
	// replace of an object another owner manages) or release.
	Action    string `cel:"action"`
	Group     string `cel:"group"`
	Version   string `cel:"version"`
	Kind      string `cel:"kind"`
	Namespace string `cel:"namespace"`
	Name      string `cel:"name"`
	Project   string `cel:"project"`
	Cluster   string `cel:"cluster"`
	// Paths are the changed field paths ("spec.replicas",
	// "spec.template.spec.containers[0].image"), sorted; empty for a
	// create and a prune.
	Paths []string `cel:"paths"`
	// Before is the live object and After the object as it will be
	// applied; nil when absent (a create has no Before, a prune no After)
	// and always nil for a Secret, so no rule and no message sees its
	// values.
	Before map[string]any `cel:"before"`
	After  map[string]any `cel:"after"`

	// Object names the change ("persistentvolumeclaim/data", as
	// kube.Ref.String does) and Files are the repository files that
	// define it (for a prune, the project's path): a verdict carries them
	// (Verdict.Object, Verdict.Files). Not seen by CEL.
	Object string   `cel:"-"`
	Files  []string `cel:"-"`
}

// Plan is the plan as a whole: the CEL variable `plan`, bound for every
// rule.
type Plan struct {
	Project   string `cel:"project"`
	Cluster   string `cel:"cluster"`
	Namespace string `cel:"namespace"`
	// ApplySet is the parent ("configmap/kubeplan-shop"), "" without one.
	ApplySet string `cel:"applyset"`
	// Counts maps each action to the number of changes with it (every
	// action is present, 0 when none).
	Counts map[string]int64 `cel:"counts"`
	// Kinds maps a kind to its counts per action (only the actions it
	// has).
	Kinds map[string]map[string]int64 `cel:"kinds"`
	// Members is the number of live members of the set before the apply;
	// PrunedFraction is the number of prunes over it (0 when it is 0).
	Members        int64   `cel:"members"`
	PrunedFraction float64 `cel:"prunedFraction"`
	// Files are the project's paths, for a plan verdict's Files. Not seen
	// by CEL.
	Files []string `cel:"-"`
}

// Verdict is one rule's outcome for one change, or for the plan.
type Verdict struct {
	Rule    string  `json:"rule"`
	Outcome Outcome `json:"outcome"`
	Message string  `json:"message"`
	// Object, Namespace and Action name the change ("" for a plan rule).
	Object    string `json:"object,omitempty"`
	Namespace string `json:"namespace,omitempty"`
	Action    string `json:"action,omitempty"`
	// Builtin is true for a built-in rule; At is where a user's rule is
	// ("kubeplan.yaml:12:5").
	Builtin bool   `json:"builtin,omitempty"`
	At      string `json:"at,omitempty"`
	// Files are the repository files the change comes from: who may
	// approve it (a code owner of them) is decided from them.
	Files []string `json:"files,omitempty"`
	// Approval is the approval that lets a require-approval verdict
	// through, once one is found (see Approve); nil while pending.
	Approval *Approval `json:"approval,omitempty"`
}

// Approval lets the require-approval verdicts of one rule through.
type Approval struct {
	Rule   string `json:"rule"`
	Reason string `json:"reason"`
	// Via is how it was given: "flag" (apply --approve RULE=REASON),
	// "review" (an approving GitHub review of a code owner) or "label" (a
	// label on the pull request).
	Via string `json:"via"`
	// By is who gave it: "@alice" for a review, the label's name, or the
	// user running the flag when known.
	By string `json:"by,omitempty"`
	// PullRequest is the pull request a review or label is on (0 for a
	// flag).
	PullRequest int `json:"pullRequest,omitempty"`
	// At is when it was given (RFC 3339).
	At string `json:"at,omitempty"`
}

// Window is one change window as written: an apply is allowed (Kind
// "allow") or refused ("deny") from each time Schedule fires for Duration.
type Window struct {
	Kind     string
	Schedule string
	Duration time.Duration
	// TimeZone is an IANA name ("Europe/Berlin"); "" means UTC.
	TimeZone string
	// File and Pos as for Rule.
	File string
	Pos  map[string]Pos
	At   Pos
}

// Override lets an apply outside its windows through, with a recorded
// reason (apply --outside-window REASON).
type Override struct {
	Reason string `json:"reason"`
	By     string `json:"by,omitempty"`
	At     string `json:"at,omitempty"`
}

// Approvals says, in kubeplan.yaml (guards.approvals), which GitHub
// approvals count: an approving review of a code owner of the files a
// verdict is about (CodeOwners), or one of Labels on the pull request.
// The --approve flag always counts.
type Approvals struct {
	CodeOwners bool
	Labels     []string
	Pos        map[string]Pos
}
