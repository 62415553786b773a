package notify

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/kubeplan/kubeplan/internal/ghcomment"
)

// Run is what one run of a project did, as serve saw it.
type Run struct {
	Project, Revision, Cluster, Namespace, ApplySet string
	// Scheduled is a drift-repair run of the interval loop rather than a
	// run for a new revision.
	Scheduled bool
	Err       error // nil: the run succeeded
	// Failures are the workloads a failed health wait found failed,
	// with their reason (nil when the run succeeded or failed otherwise).
	Failures []Failure
	// Stage is the stage a failed ordered run stopped at ("wave 1"), ""
	// for a run without stages or one that succeeded.
	Stage                      string
	Applied, Pruned, Unchanged int
	Drift                      bool // the run found (and took back) changes made outside git
	Start, End                 time.Time
	// YieldHints are serve's suggestions of yield: rules, each made once
	// (render.YieldNote): a yield-suggested webhook says them.
	YieldHints []string
}

// Config says where notifications go. The zero value sends nothing.
type Config struct {
	Webhook string // a URL that receives a POST per notification
	Format  string // json (default), slack or teams
	// Words are what the notifications say (render.NotifyWords); needed
	// when anything is sent (a webhook or a GitHub repository).
	Words Words

	GitHubRepository string // "owner/name": commit statuses and drift issues there
	GitHubToken      string
	GitHubAPI        string // default https://api.github.com

	// Timeout bounds one Observe call, retries included; default 20s.
	Timeout time.Duration
	// State keeps the per-project state across restarts; nil keeps it in memory.
	State State
}

// DefaultTimeout bounds one Observe call when Config.Timeout is zero.
const DefaultTimeout = 20 * time.Second

// saveTimeout bounds the saving of the state after the notifications.
const saveTimeout = 5 * time.Second

// Notifier turns runs into notifications. It is safe for concurrent use:
// serve observes several projects at once; runs of one project are
// observed one at a time.
type Notifier struct {
	cfg     Config
	hc      *http.Client
	gh      *ghcomment.Client // nil without a GitHub repository
	secrets []string          // literal secrets scrubbed from every text
	backoff time.Duration

	mu       sync.Mutex
	loaded   bool
	projects map[string]ProjectState
	locks    map[string]*sync.Mutex
}

// New checks cfg and returns a Notifier sending with hc (nil: a client
// with cfg.Timeout).
func New(cfg Config, hc *http.Client) (*Notifier, error) {
	if cfg.Timeout <= 0 {
		cfg.Timeout = DefaultTimeout
	}
	if hc == nil {
		hc = &http.Client{Timeout: cfg.Timeout}
	}
	if err := checkFormat(cfg.Format); err != nil {
		return nil, err
	}
	n := &Notifier{cfg: cfg, hc: hc, backoff: 500 * time.Millisecond,
		projects: map[string]ProjectState{}, locks: map[string]*sync.Mutex{}}
	if cfg.Webhook != "" {
		u, err := url.Parse(cfg.Webhook)
		if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
			return nil, errors.New("--notify-webhook: not an http(s) URL")
		}
		n.secrets = append(n.secrets, cfg.Webhook)
	}
	if cfg.GitHubRepository != "" {
		owner, name, ok := strings.Cut(cfg.GitHubRepository, "/")
		if !ok || owner == "" || name == "" || strings.Contains(name, "/") {
			return nil, fmt.Errorf("--github-repository %q is not OWNER/NAME", cfg.GitHubRepository)
		}
		if cfg.GitHubToken == "" {
			return nil, errors.New("--github-repository needs a token (--github-token-file)")
		}
		api := cfg.GitHubAPI
		if api == "" {
			api = "https://api.github.com"
		}
		n.gh = &ghcomment.Client{BaseURL: api, Token: cfg.GitHubToken, UserAgent: "kubeplan-serve", HTTP: hc}
		n.secrets = append(n.secrets, cfg.GitHubToken)
	}
	if cfg.Words == nil && (cfg.Webhook != "" || cfg.GitHubRepository != "") {
		return nil, errors.New("notify: no Words to say the notifications with (render.NotifyWords)")
	}
	return n, nil
}

// Observe takes the result of one run of a project and sends what it
// changed: nothing, "failing" or "recovered", and the commit status and
// drift issue on GitHub. It returns what could not be sent (scrubbed of
// secrets); a failed notification is tried again on the project's next run.
func (n *Notifier) Observe(parent context.Context, r Run) error {
	if r.Project == "" {
		return errors.New("notify: a run without a project")
	}
	ctx, cancel := context.WithTimeout(parent, n.cfg.Timeout)
	defer cancel()

	// The words and payloads see the failures scrubbed, as the error.
	r.Failures = n.scrubFailures(r.Failures)
	r.Stage = truncate(n.scrub(r.Stage), maxFailureText)
	if r.Err == nil {
		r.Failures, r.Stage = nil, ""
	}

	lock := n.projectLock(r.Project)
	lock.Lock()
	defer lock.Unlock()

	st, loadErr := n.state(ctx, r.Project)
	before := st
	var errs []error
	if loadErr != nil {
		errs = append(errs, loadErr)
	}
	if r.Err != nil && !st.Failing {
		st.FailingSince = r.End
		if st.FailingSince.IsZero() {
			st.FailingSince = time.Now()
		}
	}
	if err := n.webhook(ctx, r, &st); err != nil {
		errs = append(errs, err)
	}
	if err := n.yieldWebhook(ctx, r); err != nil {
		errs = append(errs, err)
	}
	if n.gh != nil {
		if err := n.commitStatus(ctx, r, &st); err != nil {
			errs = append(errs, err)
		}
		if err := n.driftIssue(ctx, r, &st); err != nil {
			errs = append(errs, err)
		}
		if err := n.yieldIssue(ctx, r); err != nil {
			errs = append(errs, err)
		}
	}
	// Failing is updated last: the notifications above compare with the
	// project's state before this run.
	st.Failing = r.Err != nil
	if !st.Failing {
		st.FailingSince = time.Time{}
	}
	if st != before {
		// What was delivered is recorded even when the notifications used
		// up the time, or serve is stopping.
		sctx, cancel := context.WithTimeout(context.WithoutCancel(parent), saveTimeout)
		defer cancel()
		if err := n.save(sctx, r.Project, st); err != nil {
			errs = append(errs, err)
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("notify %s: %s", r.Project, n.scrub(errors.Join(errs...).Error()))
}

func (n *Notifier) projectLock(project string) *sync.Mutex {
	n.mu.Lock()
	defer n.mu.Unlock()
	l := n.locks[project]
	if l == nil {
		l = &sync.Mutex{}
		n.locks[project] = l
	}
	return l
}
