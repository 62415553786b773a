package serve

import (
	"context"
	"fmt"
	"io"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/plan"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/source"
	"github.com/kubeplan/kubeplan/workspace"
)

// DefaultInterval is how often a project is reconciled unless its
// kubeplan.yaml entry or --interval says otherwise.
const DefaultInterval = time.Minute

// DefaultConcurrency is how many projects run at once per cluster.
const DefaultConcurrency = 4

// DefaultTimeout bounds one project's run: plan, writes, prune and the
// health wait.
const DefaultTimeout = 5 * time.Minute

// Options configure Run.
type Options struct {
	// Source is the git repository, branch and directory to follow, with
	// its credential files. Every round fetches it once.
	Source source.Git
	// Projects selects projects by name; empty means all of them.
	Projects []string
	// Interval is a project's default interval (DefaultInterval when 0).
	Interval time.Duration
	// Concurrency bounds the projects run at once per cluster.
	Concurrency int
	// Listen is the HTTP address of /metrics, /healthz and /readyz
	// (":8080"); empty means no HTTP server.
	Listen string
	// WebhookListen is the address of the push webhooks, /hooks/github,
	// /hooks/gitlab and /hooks/generic (":9443"); empty means none.
	WebhookListen string
	// WebhookSecretFile holds the webhooks' shared secret (a mounted
	// Secret's key), read at every request and never shown.
	WebhookSecretFile string
	// WebhookReady, when set, is told the webhooks' address once they
	// listen.
	WebhookReady func(addr fmt.Stringer)
	// Overrides are the settings serve's command line gives every
	// checkout's workspace, over its kubeplan.yaml (workspace.Open at each
	// revision).
	Overrides workspace.Overrides
	// Connect builds the client of a project's cluster; Run calls it once
	// per cluster for the life of the process.
	Connect run.Connector
	// Plan and Apply are what every project's plan and apply share;
	// namespace, ApplySet, revision and deadline are set per run.
	Plan  plan.Options
	Apply apply.Options
	// Notify are the notification settings, passed on untouched to
	// whoever OnRun hands results to.
	Notify NotifyOptions
	// OnRun, when set, is called after every project run (not for
	// projects skipped because the process stops).
	OnRun func(ctx context.Context, r RunResult)
	// OnSource, when set, is called when the git source begins failing
	// and when it recovers (once each way, not every round).
	OnSource func(ctx context.Context, s SourceStatus)
	// Log receives one line per run that wrote or failed, and errors of
	// serve itself (nil: discarded).
	Log io.Writer
	// Holder names this replica in Events (reportingInstance); hostname
	// when empty.
	Holder string
}

// NotifyOptions are where run results are announced: a webhook (json,
// Slack or Teams) and GitHub commit statuses. serve only carries them.
type NotifyOptions struct {
	Webhook string
	// Format is json, slack or teams.
	Format string
	// GitHubRepository is OWNER/NAME; GitHubTokenFile holds its token
	// (read at each use, never shown).
	GitHubRepository string
	GitHubTokenFile  string
}

func (o *Options) interval(p project.Project) time.Duration {
	if p.Interval > 0 {
		return p.Interval
	}
	if o.Interval > 0 {
		return o.Interval
	}
	return DefaultInterval
}
