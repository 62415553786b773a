// Package helmhook owns the vocabulary of Helm hooks that plan and apply
// share: the helm.sh/hook annotations and delete policies as Helm defines
// them (Of reads them into a Hook), the phase of a run (Phase), and the
// record on the ApplySet parent of the hook-succeeded hooks that ran
// (RanAnnotation, Key, Digest, ParseRan). See docs/helm.md.
//
// It is a leaf: it imports no kubeplan package. It never decides what a
// plan does with a hook (plan/hooks.go) nor runs one (apply/hooks.go).
package helmhook
