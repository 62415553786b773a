// Package apply executes a plan: it writes the ApplySet parent (with the
// union of the old and new member types), applies the objects with
// server-side apply in order (Namespaces and CRDs first, then everything
// else concurrently), skips the ones the plan found unchanged, prunes the
// members that left the set only after every apply succeeded, rewrites the
// parent to the exact set, and waits for health (package health does the
// waiting; apply decides what to wait for and when, Helm hooks one by one).
// A Lease in the namespace keeps two applies of the same set from running
// at once. The words it shares with plan about Helm hooks and ownership come
// from internal/helmhook and internal/ownership, not from plan.
//
// The parent also records each run (parent.go, record.go): revision,
// result, last error, and when the health wait failed its diagnosis
// (kubeplan.dev/last-failure, lastfailure.go, capped at 16 KiB), which
// ReadStatus reads back for kubeplan status without reading a pod, a log
// or an event.
//
// A suspended set (kubeplan suspend, suspend*.go) gets no write from
// Reconcile unless Options.IgnoreSuspend; Suspend and Resume write only
// the parent, as do the sync requests kubeplan serve answers.
//
// It executes a plan.Plan: it never loads, lints or plans manifests itself
// (package run does, then calls Reconcile), and never prints: progress goes
// to an injected Progress, which render.Progress shows.
package apply
