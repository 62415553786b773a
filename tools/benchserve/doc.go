// Benchserve measures kubeplan serve at scale: one process reconciles
// 100 projects of 50 ConfigMaps each on a testcluster, every 30 s, and for
// each round after the first (a no-op: the cluster already matches) it
// records the round's wall time (kubeplan_round_duration_seconds), the
// CPU of the kubeplan process and of the testcluster process (API server,
// etcd and controllers) over the round, kubeplan's peak RSS, and the
// writes: kubeplan's own (kubeplan_kube_writes_total) and the API
// server's writes to configmaps, leases and events
// (apiserver_request_total by verb). -floor also times a plain client-go
// loop making the same reads, the lower bound for a round.
//
// With -push it measures push to in sync instead: serve with its push
// webhooks and an interval of an hour, -pushes one-project changes, each
// committed and announced with a signed GitHub webhook, each timed until
// serve reports the project's run at the commit, less the run's own
// duration (p50 and p90).
//
// make bench-serve runs it and writes the result into docs/benchmarks.md.
package main
