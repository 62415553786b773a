package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/workspace"
)

// projectRun is what plan and apply share to run over projects: the
// source, the selected projects and the engine's options.
type projectRun struct {
	src      manifestSource
	projects []project.Project
	opts     run.Options
	scope    string // the pull-request comment's scope (ghview.RunOptions)
}

// newProjectRun reads the source (local ROOT or --source), opens its
// workspace, selects the projects and builds the options every project
// shares.
func newProjectRun(ctx context.Context, cmd *cobra.Command, s streams, sel *arguments.Select, in *arguments.Input, git *arguments.Git, cf *arguments.Cluster, args []string) (*projectRun, error) {
	if err := sel.RefuseSetFlags("namespace", "applyset"); err != nil {
		return nil, err
	}
	if _, err := workspace.RootOf(args); err != nil {
		return nil, err
	}
	src, err := checkout(ctx, git, args)
	if err != nil {
		return nil, err
	}
	root := src.top()
	if git.Source != "" {
		render.Planning(s.err, src.rev)
	}
	ws, err := s.open(cmd.Context(), in, sel, workspace.Options{From: root, Root: root, Checkout: src.root})
	if err != nil {
		return nil, err
	}
	if _, _, err := ws.Lint(workspace.Set{}); err != nil { // a bad setting fails the run, not each project
		return nil, err
	}
	clusters, err := clusterMap(s, cf.Clusters)
	if err != nil {
		return nil, err
	}
	ps, _, err := ws.Select()
	if err != nil {
		return nil, err
	}
	opts := run.Options{Workspace: ws, Connect: connector(cf, clusters, src.root, root, gitCheckout(root)),
		Plan: cf.PlanOptions("", nil, src.revision())}
	// scope: the config there would be; kubeplan comment assumes it too
	return &projectRun{src: src, projects: ps, scope: ws.ConfigFile(), opts: opts}, nil
}

// top is the directory whose projects run: the first path, else ".".
func (s manifestSource) top() string {
	if len(s.paths) > 0 {
		return s.paths[0]
	}
	return "."
}

// progressLines prints, in a terminal, one line on stderr as each project
// is done.
func progressLines(s streams, verb string) func(run.ProjectReport) {
	if !s.errTerminal {
		return nil
	}
	return func(pr run.ProjectReport) { _ = render.RunProgress(s.err, verb, pr) }
}

// newRunView is GitHub mode for a run over projects, its comment scoped
// to the repository, the config file and the workflow (ghview.Scope).
func newRunView(s streams, token string, comment bool, pr *projectRun, bearer *string, gitPassword string) *ghview.Run {
	if token == "" {
		token = s.env()("GITHUB_TOKEN")
	}
	cfg := config.DefaultFile
	if pr != nil {
		cfg = pr.scope
	}
	return ghview.NewRun(s.env(), s.err, ghview.RunOptions{Token: token, Comment: comment, Version: kubeplanVersion(),
		Secrets: []string{deref(bearer), gitPassword}, Scope: ghview.Scope(s.env(), cfg)})
}
