// Package run plans, applies and reads the status of many projects in one
// run: every project is loaded, linted and planned on its own, against its
// own cluster, namespace and ApplySet; projects run concurrently, bounded
// per cluster, and in dependsOn order (a project starts when the projects
// it depends on are done; when one of them failed it is skipped). One
// project failing never hides the others' plans. The projects and their
// settings come from a workspace (package workspace); the flags of a plain
// invocation make a workspace of one project (workspace.Single), which
// plan, apply and status run here too; kubeplan apply PLANFILE is a run
// of one project from its saved plan (Options.Saved). Every verb prepares
// its run the same way (Connect, then Target.Prepare at each run: the
// source read, the workspace opened, the projects selected or the one
// made, the connector). An Observer is told
// what a run does as it happens. Loop repeats a run (kubeplan serve's
// rounds, kubeplan apply --interval).
//
// EachParent does suspend's, resume's or a sync request's work on the
// parents of the selected projects (suspend.go).
//
// FindOrphans reads, for each project, the objects nobody manages in the
// namespaces it manages (package orphans; orphans.go): an OrphansReport.
//
// run never prints: the views in render show what it reports.
//
// The result is a Report, a value the views in render show (a section per
// project and a total, one pull-request comment for the whole run) and that
// plan --out DIR saves one file per project, for kubeplan comment to merge
// the plans of separate jobs.
package run
