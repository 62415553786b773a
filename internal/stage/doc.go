// Package stage owns the ordering vocabularies teams already write on their
// manifests, read unchanged, and the one model they map onto: an ordered
// list of stages, each object placed in one of them.
//
// Three vocabularies are read (see docs/ordering.md):
//
//   - Argo CD: argocd.argoproj.io/sync-wave (an integer, default 0),
//     argocd.argoproj.io/hook (PreSync, Sync, PostSync, SyncFail, Skip,
//     PreDelete, PostDelete) and argocd.argoproj.io/hook-delete-policy
//     (HookSucceeded, HookFailed, BeforeHookCreation; the default
//     BeforeHookCreation);
//   - kapp: kapp.k14s.io/change-group and kapp.k14s.io/change-rule, each
//     also as kapp.k14s.io/change-group.NAME and kapp.k14s.io/change-rule.NAME;
//   - Helm hooks (helm.sh/hook, read by internal/helmhook): pre-install and
//     pre-upgrade hooks are PreSync hooks, post-install and post-upgrade
//     hooks PostSync hooks, their weight their wave, as Argo CD maps them.
//
// Precedence where they meet in one project: Helm's annotations decide for
// an object that has helm.sh/hook (its Argo CD hook annotations are not
// read), so Helm hooks behave as they always did in kubeplan; Argo CD's
// phases and waves order the project; kapp's change rules order objects
// inside one phase and wave, splitting it into steps, and a rule the waves
// contradict (an object told to come after a group in a later wave) is an
// error rather than a silent reorder. Objects with no annotation are in
// wave 0, where today's order (ApplySet parent, Namespaces, CRDs first)
// still holds inside each stage; when a stage runs before wave 0, the
// Namespaces and CRDs no annotation or rule places get a first stage of
// their own (Stage.Setup), so the earlier stages' objects have them.
//
// Read places one object (Placement); Resolve places a set and orders the
// stages (Order), returning Problems at the annotation value's file:line:col.
// It never reads files or a cluster, never decides what a plan shows or
// apply runs, and imports no kubeplan engine package.
package stage
