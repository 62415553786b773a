package arguments

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
)

// Comment is kubeplan comment's command line: the merged plan's format
// outside GitHub Actions, the token of the pull-request comment and the
// config the plans were made with (it names the comment's scope).
type Comment struct {
	Output      string
	GitHubToken string
	Config      string
}

// Bind adds the flags of kubeplan comment.
func (f *Comment) Bind(fl *pflag.FlagSet) {
	fl.StringVarP(&f.Output, "output", "o", "markdown", "output format outside GitHub Actions: "+strings.Join(render.RunPlanFormats(), ", "))
	fl.StringVar(&f.GitHubToken, "github-token", "", "token for the pull-request comment (default $GITHUB_TOKEN)")
	fl.StringVar(&f.Config, "config", "kubeplan.yaml", "the config the plans were made with: it names the comment's scope")
}

// Check refuses an --output the merged plan has no view for.
func (f *Comment) Check() error { return checkOutput(f.Output, render.RunPlanFormats()) }

// View is the GitHub view of the merged plans: the pull-request comment
// (--github-token, default $GITHUB_TOKEN), scoped by --config.
func (f *Comment) View(env ghactions.Env, version string) ghview.RunOptions {
	o := ghview.RunOptions{Token: f.GitHubToken, Comment: true, Version: version, Scope: ghview.Scope(env, f.Config)}
	if o.Token == "" {
		o.Token = env("GITHUB_TOKEN")
	}
	return o
}
