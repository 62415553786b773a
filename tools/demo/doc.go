// Command demo runs kubeplan's acceptance story on a local cluster, the way
// a new user sees it with `make demo`: it starts bin/testcluster in a
// temporary directory, makes a bare git repository and a clone, mints the
// narrow gitops-reconciler identity, and walks through the seed's GitOps
// story (lint, plan, apply, change by commit, drift, prune, revert, a broken
// commit stopped by lint, status), then the kustomize flavour (a base
// planned and applied from its directory, a topic branch planned before its
// merge). Every step prints its commands and their real output, then checks
// the cluster state; the first check that does not hold stops the demo with
// exit status 1.
//
// The story is data (story_seed.go, story_kustomize.go): TestDemoStory runs
// it through `make demo`, and the README test matches the commands that
// README.md and docs/ show against it, so the demo, the test and the documents cannot
// drift apart.
//
// It removes what it made (the cluster process, the work directory) on
// success, on failure and on SIGINT/SIGTERM; the cluster also stops by
// itself when the demo is killed (it watches its stdin).
package main
