package arguments

import (
	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/render/ghview"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/source"
	"github.com/kubeplan/kubeplan/workspace"
)

// Opener opens the workspace wo says under the verb's overrides (Input)
// and selection: cmd/kubeplan passes stdin and the legacy-name notice.
type Opener func(wo workspace.Options) (*workspace.Workspace, error)

// Request is the run plan's flags ask for: over the selected projects,
// or the one project the paths and the cluster flags make. A chart's
// lookup never sees the Secrets' data. seen is told the commit of a
// --source.
func (f *Plan) Request(args []string, env ghactions.Env, open Opener, seen run.Preparing) run.Request {
	q := request(args, env, open, &f.Git, &f.Cluster, &f.Select)
	q.Plan.SecretDataWithheld, q.Observer = true, seen
	return q
}

// Request is the run apply's flags ask for; a single path may be a saved
// plan (apply PLANFILE). Over projects seen is told the commit of a
// --source (a plain invocation does not name it).
func (f *Apply) Request(args []string, env ghactions.Env, open Opener, seen run.Preparing) run.Request {
	q := request(args, env, open, &f.Git, &f.Cluster, &f.Select)
	q.SavedPlan = true
	if q.Projects {
		q.Observer = seen
	}
	return q
}

// Request is the status read status's flags ask for.
func (f *Status) Request(args []string, env ghactions.Env, open Opener) run.Request {
	return run.Request{Paths: args, Projects: f.Select.On(), Status: true, Open: open, Kube: f.Kube, ApplySet: f.ApplySet,
		ClustersEnv: env(kube.ClustersEnv), Clusters: f.Clusters, Refused: refused(&f.Select)}
}

func request(args []string, env ghactions.Env, open Opener, g *Git, c *Cluster, sel *Select) run.Request {
	return run.Request{Paths: args, Git: source.Git{URL: g.Source, Ref: g.Ref, Path: g.Path}, Projects: sel.On(), Open: open,
		Kube: c.Kube, ApplySet: c.ApplySet, ClustersEnv: env(kube.ClustersEnv), Clusters: c.Clusters,
		Plan: c.PlanOptions("", nil, ""), Refused: refused(sel)}
}

// refused is why the flags cannot run over the projects sel selects: a
// flag naming one set (Select.RefuseSetFlags); nil for a plain invocation.
func refused(sel *Select) error {
	if !sel.On() {
		return nil
	}
	return sel.RefuseSetFlags("namespace", "applyset")
}

// View is plan's GitHub view: the pull-request comment (--comment, with
// --github-token, default $GITHUB_TOKEN) of a plain invocation's set (t;
// p is nil), or of the projects' config file (p).
func (f *Plan) View(env ghactions.Env, version string, t *run.Target, p *run.Prepared) ghview.RunOptions {
	o := ghview.RunOptions{Token: f.GitHubToken, Comment: f.Comment, Version: version}
	return view(o, env, &f.Cluster, &f.Git, t, p)
}

// View is apply's GitHub view (no comment), of a plain invocation's set
// (t; p is nil) or of the projects (p).
func (f *Apply) View(env ghactions.Env, version string, t *run.Target, p *run.Prepared) ghview.RunOptions {
	return view(ghview.RunOptions{Version: version, ApplyComment: f.Comment}, env, &f.Cluster, &f.Git, t, p)
}

// view completes o: the token ($GITHUB_TOKEN by default), the secrets to
// mask (--token, a git password), and what the comment covers.
func view(o ghview.RunOptions, env ghactions.Env, c *Cluster, g *Git, t *run.Target, p *run.Prepared) ghview.RunOptions {
	if o.Token == "" {
		o.Token = env("GITHUB_TOKEN")
	}
	o.Secrets = []string{c.Token(), g.Password()}
	if p != nil {
		o.Scope = ghview.Scope(env, p.ConfigFile)
		return o
	}
	o.Single, o.Cluster, o.Namespace = true, kube.ContextName(c.Kube), t.Client.Namespace
	if t.Parent != nil {
		o.ApplySet = t.Parent.String()
	}
	return o
}
