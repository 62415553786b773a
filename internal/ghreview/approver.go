package ghreview

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/ghcomment"
	"github.com/kubeplan/kubeplan/internal/guard"
)

// Approver finds the approvals of one GitHub Actions run. Its methods
// may be called from several goroutines (one per project): what it reads
// from the API is read once for the run.
type Approver struct {
	run    ghactions.Run
	client *ghcomment.Client
	now    func() time.Time

	mu   sync.Mutex
	memo map[string]memo // what was read, by what it is (see remember)
	last []string        // the notes of the last call of Approvals
}

// memo is something read from the API, with the notes reading it made.
type memo struct {
	v     any
	notes []string
}

// call is one call of Approvals: the notes it makes.
type call struct {
	*Approver
	notes []string
}

// remember returns what load returns, loading it once per key for the
// run; the notes loading made are made again by every call that uses it.
// An error is not remembered: a later call tries again.
func remember[T any](a *call, key string, load func() (T, error)) (T, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if m, ok := a.memo[key]; ok {
		a.notes = append(a.notes, m.notes...)
		return m.v.(T), nil
	}
	n := len(a.notes)
	v, err := load()
	if err != nil {
		return v, err
	}
	if a.memo == nil {
		a.memo = map[string]memo{}
	}
	a.memo[key] = memo{v: v, notes: slices.Clone(a.notes[n:])}
	return v, nil
}

// FromEnv returns the approver for this run: nil when not in GitHub
// Actions, without a token, or on an event that is neither push nor
// pull_request/pull_request_target. token is the one kubeplan comments
// with (--github-token, default $GITHUB_TOKEN); version is kubeplan's,
// for the User-Agent.
func FromEnv(env ghactions.Env, token, version string) *Approver {
	if !env.InActions() || token == "" {
		return nil
	}
	r := env.Run()
	if !r.IsPush() && !r.IsPullRequest() {
		return nil
	}
	return &Approver{run: r, client: &ghcomment.Client{BaseURL: r.APIURL, Token: token, UserAgent: "kubeplan/" + version}, now: time.Now}
}

// Notes says, for the last call of Approvals, why approvals that might
// have counted did not: a pull request not found, a review on an older
// commit, a CODEOWNERS line skipped, a team whose members the token
// cannot read. Each note is printable text (what came from the API is
// escaped). They are for the message of a refusal; they change no
// decision. Callers that call Approvals from several goroutines use Find.
func (a *Approver) Notes() []string {
	if a == nil {
		return nil
	}
	a.mu.Lock()
	defer a.mu.Unlock()
	return slices.Clone(a.last)
}

func (a *call) note(format string, args ...any) {
	a.notes = append(a.notes, printable(fmt.Sprintf(format, args...)))
}

// Approvals returns the approvals that cover vs (the require-approval
// verdicts of one project; see guard.Verdict.Files), under cfg: one per
// rule, from a label of cfg.Labels on the pull request or, when
// cfg.CodeOwners, from approving reviews of code owners of every file
// of every verdict of the rule. No pull request found for a push (a
// direct push to the branch) is no approval, not an error; an API
// failure is an error that names the request, without the token. A nil
// Approver (not in GitHub Actions) finds none.
func (a *Approver) Approvals(ctx context.Context, vs []guard.Verdict, cfg guard.Approvals) ([]guard.Approval, error) {
	if a == nil {
		return nil, nil
	}
	f, err := a.Find(ctx, vs, cfg)
	a.mu.Lock()
	a.last = f.Notes
	a.mu.Unlock()
	return f.Approvals, err
}

// Found is what Find found: the approvals, and the notes that say why
// others did not count (see Notes).
type Found struct {
	Approvals []guard.Approval
	Notes     []string
}

// Find is Approvals with its notes.
func (a *Approver) Find(ctx context.Context, vs []guard.Verdict, cfg guard.Approvals) (Found, error) {
	if a == nil {
		return Found{}, nil
	}
	c := &call{Approver: a}
	out, err := c.approvals(ctx, vs, cfg)
	return Found{Approvals: out, Notes: c.notes}, err
}

func (a *call) approvals(ctx context.Context, vs []guard.Verdict, cfg guard.Approvals) ([]guard.Approval, error) {
	rules := pendingRules(vs)
	if len(rules) == 0 || !cfg.CodeOwners && len(cfg.Labels) == 0 {
		return nil, nil
	}
	pr, err := remember(a, "pull", func() (*pull, error) { return a.pullRequest(ctx) })
	if err != nil || pr == nil {
		return nil, err
	}
	var out []guard.Approval
	if label := pr.label(cfg.Labels); label != "" {
		at := a.now().UTC().Format(time.RFC3339)
		for _, r := range rules {
			out = append(out, guard.Approval{Rule: r.name, Via: "label", By: label, PullRequest: pr.Number, At: at,
				Reason: "label " + label})
		}
		return out, nil
	}
	if !cfg.CodeOwners {
		a.note("pull request #%d carries none of the labels that approve (%s)", pr.Number, strings.Join(cfg.Labels, ", "))
		return nil, nil
	}
	revs, err := remember(a, "reviews", func() ([]approval, error) { return a.approvingReviews(ctx, pr) })
	if err != nil || len(revs) == 0 {
		return nil, err
	}
	co, err := remember(a, "codeowners", func() (*Codeowners, error) { return a.codeowners(ctx, pr.Base.SHA) })
	if err != nil || co == nil {
		return nil, err
	}
	for _, r := range rules {
		ap, err := a.byReviews(ctx, co, r, revs, pr)
		if err != nil {
			return nil, err
		}
		if ap != nil {
			out = append(out, *ap)
		}
	}
	return out, nil
}

// ruleVerdicts are the pending require-approval verdicts of one rule.
type ruleVerdicts struct {
	name     string
	verdicts []guard.Verdict
}

// pendingRules groups the require-approval verdicts no approval lets
// through yet by rule, in the order the rules first appear.
func pendingRules(vs []guard.Verdict) []ruleVerdicts {
	var out []ruleVerdicts
	at := map[string]int{}
	for _, v := range vs {
		if v.Outcome != guard.RequireApproval || v.Approval != nil {
			continue
		}
		i, ok := at[v.Rule]
		if !ok {
			i = len(out)
			at[v.Rule] = i
			out = append(out, ruleVerdicts{name: v.Rule})
		}
		out[i].verdicts = append(out[i].verdicts, v)
	}
	return out
}
