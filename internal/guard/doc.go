// Package guard judges what a plan will do, not what the objects are:
// rules in CEL over each change (create, update, replace, prune, adopt,
// release) and over the plan as a whole, each with an outcome (deny,
// require-approval, warn); the built-in rules that protect data
// (PersistentVolumeClaims, Namespaces, CustomResourceDefinitions, a prune
// of more than half a set); the approvals that let a require-approval
// verdict through; and change windows (allow and deny schedules, cron plus
// a duration in a time zone).
//
// It is a leaf: it imports no kubeplan package. plan evaluates the rules
// (plan.Plan.Guards), apply and run enforce the verdicts, internal/config
// reads the settings from kubeplan.yaml, render shows them.
package guard
