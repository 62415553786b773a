// Package ghview is kubeplan's GitHub Actions view: what lint, plan and
// apply add to their output when they run as a workflow step
// (GITHUB_ACTIONS=true). Each command
//
//   - first registers with ::add-mask:: every token it was given and every
//     Secret value in the manifests (or saved plan) it reads, on stderr,
//     before it prints anything else (the runner reads workflow commands
//     from stdout and stderr alike; stderr keeps the data on stdout clean);
//   - appends a markdown report to $GITHUB_STEP_SUMMARY, cut to stay under
//     GitHub's 1 MiB per step, with a note when cut;
//   - writes step outputs to $GITHUB_OUTPUT;
//   - for plan on a pull request, creates or updates one comment: one per
//     cluster, namespace and ApplySet for a run of one project made from
//     flags (RunOptions.Single), or one per scope for a run over many
//     projects; apply on a pull request updates the same comment with the
//     applied run (RunOptions.ApplyComment);
//   - for apply, puts an ::error:: annotation at the manifest line of every
//     workload whose health wait failed, and its diagnosis in the job
//     summary and the comment, with every value it masks hidden there too
//     (the engine masked the Secret values it knows of already).
//
// Run is the one view of plan and apply; Plan and Apply are thin wrappers
// that hand a single plan or apply result to it as a Single run.
//
// A failure to write $GITHUB_OUTPUT fails the command: a workflow that
// reads an output (has-changes) must not go on as if it were empty. A
// failure to write the job summary or the comment is only a warning.
//
// The environment is injected (ghactions.Env), never read from the process,
// so that commands can be tested in parallel.
package ghview
