// Package ghactions speaks the GitHub Actions runner protocol: workflow
// commands written to stdout (annotations, ::add-mask::) and the environment
// files the runner reads after a step ($GITHUB_OUTPUT, $GITHUB_STEP_SUMMARY).
//
// It follows the reference implementation in @actions/core:
//
//   - Command lines have the form "::name key=value,key=value::message".
//     Properties with an empty value are left out, and a command without
//     properties is "::name::message".
//   - In the message, "%", "\r" and "\n" are escaped as "%25", "%0D" and "%0A"
//     (EscapeData); property values additionally escape ":" and "," as "%3A"
//     and "%2C" (EscapeProperty). "%" is always escaped first.
//   - Outputs are appended to the $GITHUB_OUTPUT file with the heredoc form
//     "name<<ghadelimiter_RANDOM\nvalue\nghadelimiter_RANDOM\n", where RANDOM
//     is fresh for every value and must not occur in the name or the value.
//   - The job summary is Markdown appended as-is to $GITHUB_STEP_SUMMARY;
//     a step may write at most 1 MiB (StepSummaryLimit).
//   - ::add-mask::VALUE makes the runner replace VALUE with *** in every
//     later log line; Masks says which strings to register for a secret.
//   - At most 10 annotations of each level are shown per step
//     (MaxAnnotations).
//   - The run is described by GITHUB_* variables and the event payload at
//     $GITHUB_EVENT_PATH (Run).
//   - The runner takes a log line for a command when it starts with "::"
//     after white space, or holds "##[" anywhere; a Guard escapes both in
//     everything but kubeplan's own commands (CommandWriter), so text from
//     a repository never commands the runner.
//
// The package holds no kubeplan logic: renderers decide what to say, this
// package only decides how it is written.
package ghactions
