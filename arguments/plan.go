package arguments

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/pflag"

	"github.com/kubeplan/kubeplan/render"
)

// Plan is kubeplan plan's command line.
type Plan struct {
	Input            Input
	Git              Git
	Cluster          Cluster
	Select           Select
	Out              string
	Output           string
	DetailedExitcode bool
	GitHubToken      string
	Comment          bool
}

// Bind adds plan's flags.
func (f *Plan) Bind(fl *pflag.FlagSet) {
	f.Input.Bind(fl)
	f.Input.BindDecrypt(fl)
	f.Cluster.Bind(fl)
	f.Git.Bind(fl, "plan")
	fl.StringVar(&f.Out, "out", "", "also write the plan to this file, for kubeplan apply PLANFILE (holds Secret values: keep it private); over projects, a directory of one file per project, for kubeplan comment")
	fl.StringVarP(&f.Output, "output", "o", "text", "output format: "+strings.Join(PlanFormats(), ", ")+" (github: text, the GitHub Actions extras come with GITHUB_ACTIONS=true)")
	fl.BoolVar(&f.DetailedExitcode, "detailed-exitcode", false, "exit 2 when the plan has changes, 0 when it has none (1 stays any error)")
	fl.StringVar(&f.GitHubToken, "github-token", "", "token for the pull-request comment in GitHub Actions (default $GITHUB_TOKEN)")
	f.Select.Bind(fl, "plan")
	fl.BoolVar(&f.Comment, "comment", true, "in GitHub Actions on a pull_request event with a token: create or update the plan comment on the pull request")
}

// PlanFormats are the --output values plan takes.
func PlanFormats() []string { return append(render.PlanFormats(), "github") }

// Check refuses an unknown --output and --source with paths (Git.Check);
// format is the output format (github is text: GitHub mode comes from
// GITHUB_ACTIONS=true).
func (f *Plan) Check(args []string) (format string, err error) {
	format = f.Output
	if format == "github" {
		format = "text"
	}
	if !slices.Contains(render.PlanFormats(), format) {
		return "", fmt.Errorf("unknown --output %q: want one of %s", f.Output, strings.Join(PlanFormats(), ", "))
	}
	return format, f.Git.Check(args)
}
