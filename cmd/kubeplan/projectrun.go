package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/kube"
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
func newProjectRun(ctx context.Context, cmd *cobra.Command, s streams, sel *selectFlags, in *inputFlags, git *gitFlags, cf *clusterFlags, args []string) (*projectRun, error) {
	if err := sel.refuseSetFlags(cmd, "namespace", "applyset"); err != nil {
		return nil, err
	}
	if _, err := workspace.RootOf(args); err != nil {
		return nil, err
	}
	src, err := git.checkout(ctx, args)
	if err != nil {
		return nil, err
	}
	root := src.top()
	if git.source != "" {
		render.Planning(s.err, src.rev)
	}
	ws, err := in.open(cmd, s, sel, workspace.Options{From: root, Root: root, Checkout: src.root})
	if err != nil {
		return nil, err
	}
	if _, _, err := ws.Lint(workspace.Set{}); err != nil { // a bad setting fails the run, not each project
		return nil, err
	}
	clusters, err := clusterMap(s, cf.clusters)
	if err != nil {
		return nil, err
	}
	ps, _, err := ws.Select()
	if err != nil {
		return nil, err
	}
	opts := run.Options{Workspace: ws, Connect: cf.connector(clusters, src.root, root, gitCheckout(root)),
		Plan: cf.planOptions(&kube.Client{}, nil, src.revision(), nil)}
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

// connector connects to a project's cluster (kube.Connector): for a
// project naming a cluster, the kubeconfig and context the runner maps it
// to in clusters, refusing a name it does not map; else the command
// line's. Kubeconfig files are checked against checkouts.
func (f *clusterFlags) connector(clusters kube.Clusters, checkouts ...string) run.Connector {
	c := kube.Connector{Base: f.kube, Clusters: clusters, Checkouts: checkouts}
	return func(p project.Project) (*kube.Client, string, error) { return c.Connect(p.ClusterName, p.ClusterAt) }
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
