package serve

import (
	"errors"
	"fmt"
	"os"
	"strings"

	"github.com/kubeplan/kubeplan/notify"
)

// Notifier builds the notifier n asks for, nil when it names neither a
// webhook nor a GitHub repository. Its notifications say words; the
// GitHub token is read from GitHubTokenFile (trimmed); githubAPI is the
// GitHub API's URL ("" for api.github.com). state, when not nil, gives
// where the notifier keeps its per-project state across restarts.
func (n NotifyOptions) Notifier(words notify.Words, githubAPI string, state func() (notify.State, error)) (*notify.Notifier, error) {
	if n.Webhook == "" && n.GitHubRepository == "" {
		return nil, nil
	}
	cfg := notify.Config{Webhook: n.Webhook, Format: n.Format, GitHubRepository: n.GitHubRepository, GitHubAPI: githubAPI, Words: words}
	if n.GitHubRepository != "" {
		if n.GitHubTokenFile == "" {
			return nil, errors.New("--github-repository needs --github-token-file")
		}
		b, err := os.ReadFile(n.GitHubTokenFile)
		if err != nil {
			return nil, fmt.Errorf("--github-token-file: %w", err)
		}
		cfg.GitHubToken = strings.TrimSpace(string(b))
	}
	if state != nil {
		s, err := state()
		if err != nil {
			return nil, err
		}
		cfg.State = s
	}
	return notify.New(cfg, nil)
}

// Notifications sets OnRun to hand every run to the notifier of o.Notify
// (NotifyOptions.Notifier, with words, githubAPI and state; a
// notification that cannot be sent is a line on o.Log). Without a
// webhook or a GitHub repository, OnRun is left as it is.
func (o *Options) Notifications(words notify.Words, githubAPI string, state func() (notify.State, error)) error {
	n, err := o.Notify.Notifier(words, githubAPI, state)
	if err != nil || n == nil {
		return err
	}
	o.OnRun = Notify(n, o.Log)
	o.OnSource = NotifySource(n, o.Log)
	return nil
}
