// Command benchprojects benchmarks `kubeplan plan --all` over a repository
// of many projects (issue 13) against the same objects planned as one set,
// against `--changed-since` after a change to one overlay, and against
// `kubectl diff --server-side -k` run once per overlay. It is what `make
// bench-projects` runs:
//
//	go run ./tools/benchprojects [-runs 3] [-quick] [-keep] [-doc docs/benchmarks.md]
//
// Steps, one file each:
//
//   - repo.go: a generated git repository in a temporary directory: 25
//     bases, each with a dev and a prod overlay (50 projects), 40 objects a
//     project (31 ConfigMaps, one of them generated with a hashed name the
//     Deployments refer to, 2 Deployments, 2 Services, a ServiceAccount, a
//     Role and its RoleBinding, a PodDisruptionBudget, a NetworkPolicy), each
//     overlay in its own namespace, and a kubeplan.yaml; committed. -quick
//     makes 4 bases (8 projects) for a smoke test.
//   - flat.go: the same 2,000 objects rendered (kustomize, in-process) into
//     one plain directory for one namespace, each overlay's names prefixed
//     with its environment so that nothing collides.
//   - cluster.go: starts bin/testcluster (internal/testing/testkube), creates the
//     namespaces and applies every overlay and the flat directory once with
//     `kubeplan apply --wait=false` (so that each set is kubeplan's own),
//     then waits for the Deployments and for the cluster to go quiet; then
//     commits a change to one overlay (an image tag) for --changed-since.
//   - main.go: the rounds. After one untimed warm-up round, each round runs
//     (a) kubeplan plan --all, (b) kubeplan plan -n NS --applyset
//     configmap/x FLATDIR, (c) kubeplan plan --changed-since HEAD~1 and (d)
//     kubectl diff --server-side --field-manager=kubeplan -k OVERLAY for
//     each overlay in turn (kubeplan's manager: with its own, kubectl's
//     dry-run of the changed overlay conflicts with kubeplan's fields), the
//     first of them rotating from round to round, so that load from other
//     processes hits all alike.
//   - report.go: medians, the paired ratios a/b (target <= 1.5), c/a
//     (target <= 0.1) and a/d, and the Markdown section written into
//     docs/benchmarks.md with -doc.
//
// A command that fails (a kubeplan without --all or --changed-since on
// plan, say) is reported in the table with its first line of error instead
// of times, the other commands are still measured, and the program exits 1.
package main
