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
//     projects.
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
