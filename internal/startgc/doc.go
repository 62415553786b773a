// Package startgc keeps Go's garbage collector from running while
// kubeplan starts. Initialising the packages kubeplan links (client-go's
// schemes, the JSON-schema and CEL libraries) allocates about 6 MB, and
// the collector's first goal is 4 MB: without this package, `kubeplan
// version` collected twice before main, and `kubeplan lint FILE` five
// times in a run of about 33 ms (a collection costs 1-2 ms of wall time on
// two cores).
//
// Importing it (cmd/kubeplan does, for its side effect) turns the
// collector off from this package's init until the Go runtime's memory
// reaches startLimit; the collection that limit starts turns the collector
// back on with the process's own settings (GOGC, GOMEMLIMIT). A short run
// never collects; a long one collects first at startLimit, then as usual.
// plan and apply raise the limit to ClusterLimit (Raise) as they start: a
// one-project plan then never collects either.
// When GOGC or GOMEMLIMIT is set, the user chose, and nothing changes;
// settings the program makes before the hold ends (serve's, through
// internal/gctune) are kept when it ends.
//
// It imports no kubeplan package and only the standard library, so Go
// (which initialises packages in import-path order as their dependencies
// allow) runs it before k8s.io/... and github.com/santhosh-tekuri/...,
// which allocate most of the 6 MB: `GODEBUG=inittrace=1` shows it about
// halfway through the list, and `GODEBUG=gctrace=1 kubeplan version`
// shows no collection.
package startgc
