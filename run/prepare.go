package run

import (
	"context"
	"errors"
	"path/filepath"

	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/source"
	"github.com/kubeplan/kubeplan/workspace"
)

// Request is one invocation of plan, apply or status, before anything is
// read: where the manifests are, and either the projects of the workspace
// or the one project the flags make (a plain invocation).
type Request struct {
	// Paths are the command line's paths: the manifests, the directory
	// whose projects run, or a saved plan (SavedPlan).
	Paths []string
	// Git is --source, --ref and --path; without a URL the paths are read
	// as they are.
	Git source.Git
	// Projects says the run is over projects (--project, --all,
	// --changed-since); else it is the one project the flags make.
	Projects bool
	// Open opens the workspace wo says, under the flags' overrides.
	Open func(wo workspace.Options) (*workspace.Workspace, error)
	// Kube are kubectl's connection flags; ApplySet is --applyset.
	Kube     *genericclioptions.ConfigFlags
	ApplySet string
	// ClustersEnv and Clusters are $KUBEPLAN_CLUSTERS and --clusters: the
	// runner's map of the clusters projects name (kube.ParseClusters).
	ClustersEnv string
	Clusters    []string
	// Plan holds the plan settings every project shares; the namespace,
	// ApplySet and revision are set here. A chart's lookup reads the
	// project's cluster (Options.Lookup).
	Plan plan.Options
	// SavedPlan says a single path may be a plan saved by plan --out
	// (apply PLANFILE): then it is the run (Options.Saved).
	SavedPlan bool
	// Status says the run only reads the ApplySets' status: no source is
	// read, and nothing is linted.
	Status bool
	// Refused, when not nil, is why the flags cannot run over projects
	// (a flag naming one set): Prepare fails with it.
	Refused error
	// Observer, when set, is told the revision a --source checkout read.
	Observer Preparing
}

// Preparing is told what preparing a run does (a view prints it).
type Preparing interface {
	// Checked is told the revision of the checkout about to be read.
	Checked(rev *source.Revision)
}

// Target is a request whose cluster is known: a plain invocation's client
// and ApplySet (Connect). It prepares a run at each call of Prepare
// (apply --interval reads the source again at every run).
type Target struct {
	q Request
	// Client is a plain invocation's cluster (nil over projects); Parent
	// its ApplySet (nil without --applyset, and for status).
	Client *kube.Client
	Parent *applyset.Parent
}

// Prepared is one run ready to go: the projects and the options they
// share, and what was read.
type Prepared struct {
	Projects []project.Project
	Options  Options
	// Revision is the revision read, nil when unknown.
	Revision *source.Revision
	// ConfigFile is the workspace's kubeplan.yaml (the pull-request
	// comment's scope), config.DefaultFile when there is none.
	ConfigFile string
}

// Connect is the request's cluster: for a plain invocation, its client
// (no request yet; a kubeconfig inside the working directory's git
// repository is checked, kube.CheckKubeconfigs, except for status) and
// --applyset parsed against its namespace. Over projects each project
// connects when it runs.
func Connect(q Request) (*Target, error) {
	t := &Target{q: q}
	if q.Projects {
		return t, nil
	}
	var err error
	if q.Status {
		t.Client, err = kube.Connect(q.Kube)
		return t, err
	}
	if t.Client, err = kube.Connect(q.Kube, repoTop(".")); err != nil {
		return nil, err
	}
	if q.ApplySet != "" {
		as, err := applyset.ParseParentFlag(q.ApplySet, t.Client.Namespace)
		if err != nil {
			return nil, err
		}
		t.Parent = &as
	}
	return t, nil
}

// Prepare reads the source and opens its workspace: the selected
// projects, or the one project the flags make (workspace.Single), with
// the options of their run. A saved plan is a run of one project from it.
func (t *Target) Prepare(ctx context.Context) (*Prepared, error) {
	if t.q.Projects {
		return t.projects(ctx)
	}
	p := &Prepared{Projects: []project.Project{{ApplySet: t.q.ApplySet}}, ConfigFile: config.DefaultFile,
		Options: Options{Connect: connected(t.Client), Single: true, Plan: t.q.Plan, Lookup: true}}
	p.Options.Plan.Namespace, p.Options.Plan.ApplySet = t.Client.Namespace, t.Parent
	if t.q.Status {
		// status reads only kubeplan.yaml's health rules (Options.HealthRules)
		ws, err := t.q.Open(workspace.Options{})
		p.Options.Workspace = ws
		return p, err
	}
	if t.q.SavedPlan && len(t.q.Paths) == 1 {
		sp, err := plan.Detect(t.q.Paths[0])
		if err != nil || sp != nil {
			p.Options.Saved = sp
			if err == nil {
				err = t.savedGuards(p)
			}
			return p, err
		}
	}
	co, err := t.checkout(ctx)
	if err != nil {
		return p, err
	}
	ws, err := t.q.Open(workspace.Options{Checkout: co.Root})
	if err != nil {
		return p, err
	}
	p.Projects[0] = ws.Single(co.Paths, t.q.ApplySet)
	p.Options.Workspace, p.Options.Plan.Revision, p.Revision = ws, co.Revision(), co.Rev
	return p, nil
}

// savedGuards gives a saved plan's project the guard rules and change
// windows it is judged by again when it is applied: those of the
// kubeplan.yaml --config names or the working directory finds, as a
// plain invocation's (workspace.Single), else the built-in rules alone.
// A kubeplan.yaml that cannot be read stops the apply.
func (t *Target) savedGuards(p *Prepared) error {
	ws, err := t.q.Open(workspace.Options{})
	if err != nil {
		return err
	}
	single := ws.Single(nil, t.q.ApplySet)
	p.Projects[0].Guards, p.Projects[0].Windows = single.Guards, single.Windows
	if p.Projects[0].Guards == nil {
		set, err := guard.Compile(guard.Config{})
		if err != nil {
			return err
		}
		p.Projects[0].Guards = set
	}
	return nil
}

// checkout reads the source and tells the observer its revision.
func (t *Target) checkout(ctx context.Context) (source.Checkout, error) {
	co, err := source.Read(ctx, t.q.Git, t.q.Paths)
	if err == nil && t.q.Git.URL != "" && t.q.Observer != nil {
		t.q.Observer.Checked(co.Rev)
	}
	return co, err
}

// projects prepares a run over the projects the workspace selects, each
// against its own cluster, namespace and ApplySet.
func (t *Target) projects(ctx context.Context) (*Prepared, error) {
	p := &Prepared{ConfigFile: config.DefaultFile}
	if t.q.Refused != nil {
		return p, t.q.Refused
	}
	root, err := workspace.RootOf(t.q.Paths)
	if err != nil {
		return p, err
	}
	var co source.Checkout
	if !t.q.Status {
		if co, err = t.checkout(ctx); err != nil {
			return p, err
		}
		root = co.Top()
	}
	ws, err := t.q.Open(workspace.Options{From: root, Root: root, Checkout: co.Root})
	if err != nil {
		return p, err
	}
	if err := t.settings(ws); err != nil {
		return p, err
	}
	clusters, err := kube.ParseClusters(t.q.ClustersEnv, t.q.Clusters)
	if err != nil {
		return p, err
	}
	if p.Projects, _, err = ws.Select(); err != nil {
		return p, err
	}
	c := kube.Connector{Base: t.q.Kube, Clusters: clusters, Checkouts: []string{co.Root, root, repoTop(root)}}
	if t.q.Status {
		c.Checkouts = c.Checkouts[1:]
	}
	p.Options = Options{Workspace: ws, Plan: t.q.Plan, Lookup: true, Connect: func(pr project.Project) (*kube.Client, string, error) {
		return c.Connect(pr.ClusterName, pr.ClusterAt)
	}}
	p.Options.Plan.Revision, p.Revision, p.ConfigFile = co.Revision(), co.Rev, ws.ConfigFile()
	return p, nil
}

// settings refuses a workspace whose settings are bad: that fails the
// run, not each project (status lints nothing).
func (t *Target) settings(ws *workspace.Workspace) error {
	if t.q.Status {
		return nil
	}
	_, _, err := ws.Lint(workspace.Set{})
	return err
}

// Failed is the report of a plain invocation's run that failed before its
// project started (err): the failure is recorded on the ApplySet parent
// (RecordFailure), and the record's own error joined to err.
func (t *Target) Failed(ctx context.Context, fieldManager string, err error) *Report {
	err = errors.Join(err, RecordFailure(ctx, t.Client, t.Parent, fieldManager, err))
	return &Report{Version: FormatVersion, Single: true, Projects: []ProjectReport{{Status: Failed, Error: err.Error(), Err: err}}}
}

// connected is the Connector of a plain invocation: the client its
// cluster flags made.
func connected(c *kube.Client) Connector {
	return func(project.Project) (*kube.Client, string, error) { return c, "", nil }
}

// repoTop is the root of the git repository holding dir, "" when dir is
// in none: a kubeconfig there may come from a pull request
// (kube.CheckKubeconfigs).
func repoTop(dir string) string {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return ""
	}
	return confine.RepoTop(abs)
}
