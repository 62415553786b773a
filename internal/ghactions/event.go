package ghactions

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strings"
)

// DefaultAPIURL is the REST API of github.com; GitHub Enterprise Server
// runners set $GITHUB_API_URL to their own (https://HOST/api/v3).
const DefaultAPIURL = "https://api.github.com"

// Run is what the runner tells a step about the workflow run, read from the
// GITHUB_* environment variables.
type Run struct {
	EventName  string // $GITHUB_EVENT_NAME: "pull_request", "push", ...
	EventPath  string // $GITHUB_EVENT_PATH: the webhook payload as JSON
	Repository string // $GITHUB_REPOSITORY: "owner/repo"
	APIURL     string // $GITHUB_API_URL, DefaultAPIURL when unset
	ServerURL  string // $GITHUB_SERVER_URL: "https://github.com"
	RunID      string // $GITHUB_RUN_ID
	// SHA is $GITHUB_SHA: on a push, the commit pushed (the merge, squash
	// or rebased commit of a merged pull request); on a pull request, the
	// runner's merge of its head into its base.
	SHA string
	// Ref is $GITHUB_REF: "refs/heads/main" on a push to main.
	Ref string
}

// RunFromEnv reads Run from the process environment.
func RunFromEnv() Run { return OSEnv.Run() }

// Run reads Run from the environment e.
func (e Env) Run() Run {
	r := Run{
		EventName:  e("GITHUB_EVENT_NAME"),
		EventPath:  e("GITHUB_EVENT_PATH"),
		Repository: e("GITHUB_REPOSITORY"),
		APIURL:     strings.TrimSuffix(e("GITHUB_API_URL"), "/"),
		ServerURL:  strings.TrimSuffix(e("GITHUB_SERVER_URL"), "/"),
		RunID:      e("GITHUB_RUN_ID"),
		SHA:        e("GITHUB_SHA"),
		Ref:        e("GITHUB_REF"),
	}
	if r.APIURL == "" {
		r.APIURL = DefaultAPIURL
	}
	return r
}

// IsPullRequest reports whether the run was started by a pull_request or
// pull_request_target event.
func (r Run) IsPullRequest() bool {
	return r.EventName == "pull_request" || r.EventName == "pull_request_target"
}

// IsPush reports whether the run was started by a push event.
func (r Run) IsPush() bool { return r.EventName == "push" }

// Branch is the branch a push went to ("main" for refs/heads/main), ""
// when Ref names no branch (a tag, or a pull request's merge ref).
func (r Run) Branch() string {
	b, ok := strings.CutPrefix(r.Ref, "refs/heads/")
	if !ok {
		return ""
	}
	return b
}

// URL is the page of the run ("https://github.com/o/r/actions/runs/1"),
// where its job summaries are; "" when the environment does not say.
func (r Run) URL() string {
	if r.ServerURL == "" || r.Repository == "" || r.RunID == "" {
		return ""
	}
	return r.ServerURL + "/" + r.Repository + "/actions/runs/" + r.RunID
}

// PullRequestHeadSHA reads the head commit of the event's pull request
// from the payload (pull_request.head.sha): the commit the run is about,
// which the pull request may have moved on from since.
func (r Run) PullRequestHeadSHA() (string, error) {
	var ev struct {
		PullRequest struct {
			Head struct {
				SHA string `json:"sha"`
			} `json:"head"`
		} `json:"pull_request"`
	}
	if err := r.readEvent(&ev); err != nil {
		return "", err
	}
	if ev.PullRequest.Head.SHA == "" {
		return "", fmt.Errorf("event payload %s has no pull_request.head.sha", r.EventPath)
	}
	return ev.PullRequest.Head.SHA, nil
}

// readEvent decodes the event payload into v.
func (r Run) readEvent(v any) error {
	if r.EventPath == "" {
		return errors.New("$GITHUB_EVENT_PATH is not set, so the event is unknown")
	}
	data, err := os.ReadFile(r.EventPath)
	if err != nil {
		return fmt.Errorf("reading the event payload: %w", err)
	}
	if err := json.Unmarshal(data, v); err != nil {
		return fmt.Errorf("event payload %s: %w", r.EventPath, err)
	}
	return nil
}

// PullRequestNumber reads the pull request's number from the event payload:
// pull_request.number, or the top-level number.
func (r Run) PullRequestNumber() (int, error) {
	if r.EventPath == "" {
		return 0, errors.New("$GITHUB_EVENT_PATH is not set, so the pull request is unknown")
	}
	data, err := os.ReadFile(r.EventPath)
	if err != nil {
		return 0, fmt.Errorf("reading the event payload: %w", err)
	}
	var ev struct {
		Number      int `json:"number"`
		PullRequest struct {
			Number int `json:"number"`
		} `json:"pull_request"`
	}
	if err := json.Unmarshal(data, &ev); err != nil {
		return 0, fmt.Errorf("event payload %s: %w", r.EventPath, err)
	}
	if n := ev.PullRequest.Number; n > 0 {
		return n, nil
	}
	if ev.Number > 0 {
		return ev.Number, nil
	}
	return 0, fmt.Errorf("event payload %s has no pull_request.number", r.EventPath)
}
