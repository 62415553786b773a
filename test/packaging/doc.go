// Package packaging holds the tests of how kubeplan is handed to its users
// outside the binary: the GitHub Action (action.yml at the repository root),
// the examples in examples/ (GitHub workflows, systemd units, a pre-commit
// configuration), the pre-commit hook (.pre-commit-hooks.yaml) and the
// snippets of README.md and docs/ that show them.
//
// The tests run these files for real, as far as that is possible without
// GitHub: the action's steps run under bash the way the runner runs a
// composite action (env, $GITHUB_OUTPUT, $RUNNER_TEMP), against the real
// cluster of bin/testcluster; the workflows are checked with actionlint
// against the local action's metadata; the pre-commit hook is installed and
// run by Debian's pre-commit on a throwaway repository; the systemd units are
// checked by systemd-analyze and their command is run against the cluster.
//
// The package has no code besides its tests.
package packaging
