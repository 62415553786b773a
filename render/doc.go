// Package render turns plain data (lint reports, plans, runs, apply
// results, statuses) into text for people and tools: text, json, sarif,
// junit, github and markdown. Renderers never compute anything: they only
// format what they are given, sorting a copy of it where an order is
// promised, and the same input always gives the same bytes. One file per
// format, each with its own test over fixed data.
//
// Every line kubeplan writes for people comes from here, so a wording
// change touches one place:
//
//   - one family of views for plan, apply and status: the run views
//     (RunPlan, RunApply, RunStatus, RunApplyMarkdown, RunAnnotations)
//     render a run over many projects, and a run of one project made from
//     flags (run.Report.Single) exactly as the single views (Plan, Apply,
//     Status, ApplyMarkdown, PlanAnnotations) render its plan, result or
//     status (run_single.go);
//   - the per-project progress lines of a run (RunProgress);
//   - what kubeplan orphans found (Orphans, orphans.go);
//   - what kubeplan serve's notifications say (NotifyWords, handed to
//     notify.Config.Words: notify decides when and delivers) and the
//     notes of the Events it records (EventNote);
//   - the verdicts of the rules over plans, the approvals that let them
//     through and the closed change windows (internal/guard), in the plan,
//     apply, status and run views alike (guards.go);
//   - the GitHub Actions view of lint, plan and apply (package ghview).
//
// The markdown views fit a byte limit (GitHub's comment and job-summary
// limits) with one engine, mdLay (markdown_fit.go), applied to a tree of
// parts: a run is a list of project sections, a project's section holds
// its plan's or apply's sections, and a section holds its table's rows.
// The levels differ only in the budget policy, which is data (mdPolicy):
// the rows of a table keep a prefix (mdPrefix), the sections of a view
// are filled in order, a later one still getting what an earlier one
// could not use (mdInOrder), and a run's projects share the room max-min
// fairly (mdFair), so one big plan cannot crowd out the others. Both
// rules are needed for the same bytes as before: filling in order keeps
// the risky tables of one plan ahead of its diffs, sharing fairly keeps
// every project of a run visible.
//
// render never reads the environment, the terminal or the network, and
// never prints a Secret value (Change.Object is never rendered).
package render
