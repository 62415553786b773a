package ghview

import (
	"path/filepath"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/ghactions"
)

// Scope is a run's RunOptions.Scope, "owner/repo:kubeplan.yaml@workflow":
// the repository and workflow from env, and configFile named relative to
// the root of the git repository holding it. Runs of other configs or
// workflows (against other clusters) keep their own comments.
func Scope(env ghactions.Env, configFile string) string {
	return env("GITHUB_REPOSITORY") + ":" + repoRelative(configFile) + "@" + env("GITHUB_WORKFLOW")
}

// repoRelative is path relative to the root of the git repository holding
// it (config.RepoRoot), with "/".
func repoRelative(path string) string {
	abs, err := filepath.Abs(path)
	if err != nil {
		return filepath.ToSlash(path)
	}
	if rel, err := filepath.Rel(config.RepoRoot(filepath.Dir(abs)), abs); err == nil {
		return filepath.ToSlash(rel)
	}
	return filepath.ToSlash(filepath.Clean(path))
}
