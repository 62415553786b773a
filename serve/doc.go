// Package serve is kubeplan's reconciler: the long-running process of
// kubeplan serve, meant to run in a pod as a ServiceAccount.
//
// Every round it fetches the git source once, reads the projects of the
// checkout (kubeplan.yaml) and runs those that are due (each has its own
// interval) through run.Apply with Stream: each project linted, planned
// and, when the cluster differs, applied in one step, bounded per cluster
// and in dependsOn order, and reported as soon as it ends. What depends only on
// the revision (the projects, each project's linted objects) is kept until
// the revision changes, so a round at an unchanged revision only reads the
// cluster; clients are made once per cluster. A round that finds every
// project in sync writes nothing.
//
// With Options.WebhookListen serve also receives push webhooks (GitHub,
// GitLab, a generic one), each checked with the shared secret of
// Options.WebhookSecretFile before anything else is read of it; an
// accepted push of the source's branch wakes the loop, whose next round
// runs the projects changed since each one's last applied revision
// (project.ChangedSince), whatever their interval. A burst of pushes is
// one round, and one run per project (runNow, request).
//
// A round whose source cannot be fetched or read runs nothing. It is
// counted by reason (a fixed set, sourcefail.go); when the failure begins
// serve records kubeplan.dev/source-failing and a SourceFailed Event on
// each known project's parent and calls Options.OnSource once, and when
// it ends removes the record, records SourceRecovered and calls OnSource
// again.
//
// A project whose ApplySet is locked by another replica is waited for
// (the Lease released or expired, at most its interval) and then run again.
// After each run serve updates its metrics (/metrics), records a
// Kubernetes Event on the ApplySet parent when the run wrote, pruned or
// failed (HealthCheckFailed, as Flux, when the health wait failed), and
// calls Options.OnRun. A failed run is counted by reason, a label of a
// fixed set of values (reason.go), never the cluster's free text; Notify
// hands the notifier each failed workload of a failed health wait. On stop it finishes the runs under way,
// starts no other, and shuts its HTTP server down.
//
// Files: options.go (what serve is given), serve.go (Run), loop.go (the
// rounds and who is due), round.go (one round), lockwait.go (waiting for
// another replica), source.go (the fetch and the projects of a revision),
// cache.go (objects per revision), clusters.go (one client per cluster),
// result.go (RunResult), notify.go (Notify, the OnRun that hands runs to
// package notify, and NotifySource), metrics.go, reason.go (the reason
// label), events.go, http.go, webhook.go (the webhooks' signatures and
// payloads), webhook_http.go (their server), push.go (what a push runs),
// sourcefail.go (a failing source: its reason and state),
// sourceparents.go (its record and Events on the parents), yield.go (a
// field taken back in YieldRuns runs in a row: the yield: rule to add,
// told once as a YieldSuggested Event; yieldpath.go words its path),
// util.go.
//
// Suspensions and sync requests (kubeplan suspend, kubeplan sync
// --via-serve) are read from the projects' parents every few seconds
// (syncrequests.go): a suspended project is skipped, not planned, with
// the outcome "suspended" (suspend.go); a resumed or requested one runs at
// once, and a request's answer is the one write serve makes of its own.
//
// serve never decides what a project's run does (run.Apply does), never
// resolves kubeplan.yaml itself (it opens a workspace at each revision),
// and words no Event or notification itself (render.EventNote,
// render.SourceEventNote and render.NotifyWords do); it writes only its log lines.
package serve
