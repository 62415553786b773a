package guard

import (
	"errors"

	yaml "go.yaml.in/yaml/v3"
)

// This file holds the package's API as stubs; the engine (compile.go,
// evaluate.go, builtin.go, approve.go, refusal.go) and the windows
// (window.go) replace them.

var errTODO = errors.New("guard: not implemented yet")

// Set is a compiled Config: the built-in rules with their outcomes (those
// switched off left out), then the user's rules.
type Set struct{}

// Compile checks and compiles c: a syntax or type error, an unknown
// outcome, scope or built-in name, or two rules of one name, is an error
// naming the rule's file:line:col. A nil or empty Config yields the
// built-in rules.
func Compile(c Config) (*Set, error) { return &Set{}, nil }

// Approvals are the GitHub approvals that count for this set's rules
// (Config.Approvals).
func (s *Set) Approvals() Approvals { return Approvals{} }

// NeedsObjects says whether a rule reads change.before or change.after:
// when no rule does, the caller need not build them.
func (s *Set) NeedsObjects() bool { return false }

// NeedsPaths says whether a rule reads change.paths.
func (s *Set) NeedsPaths() bool { return false }

// Evaluate runs every rule: change rules once per change, plan rules
// once. It returns the verdicts, denies first, then require-approval,
// then warn, each in the order of the changes. An expression that fails
// to evaluate on an input is an error naming the rule and the object.
func (s *Set) Evaluate(p Plan, changes []Change) ([]Verdict, error) { return nil, nil }

// Approve sets the Approval of each require-approval verdict an approval
// names by its rule (the first that does) and returns the verdicts that
// are still pending, in order.
func Approve(vs []Verdict, as []Approval) []Verdict { return nil }

// Denied returns the deny verdicts.
func Denied(vs []Verdict) []Verdict { return nil }

// ParseApproval reads --approve's RULE=REASON; the reason must not be
// empty.
func ParseApproval(s string) (Approval, error) { return Approval{}, errTODO }

// Refusal is the error of an apply the guards stop: the deny verdicts,
// the pending require-approval verdicts, and a closed window. Its text
// names each rule, the object and, for a pending approval, the exact flag
// that approves it (--approve RULE=REASON); for a closed window, when it
// opens and the flag that overrides it (--outside-window REASON).
type Refusal struct {
	Denied  []Verdict
	Pending []Verdict
	Window  *WindowState
}

func (r *Refusal) Error() string { return "refused by guard rules" }

// ParseConfig reads kubeplan.yaml's guards: node (file names that file,
// for positions): builtin:, rules:, approvals: and files:. It returns the
// Config (File set) and the rule files files: names, as written, for the
// caller to read (confined to the checkout) and parse with ParseRules.
// An unknown key, a wrong type or a missing name or expression is an
// error at its file:line:col.
func ParseConfig(file string, n *yaml.Node) (Config, []string, error) {
	return Config{File: file}, nil, nil
}

// ParseRules reads a rules file: a YAML list of rules, or a mapping whose
// rules: key holds one. Errors as ParseConfig's.
func ParseRules(file string, data []byte) ([]Rule, error) { return nil, nil }
