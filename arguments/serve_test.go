package arguments

import (
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/kubeplan/kubeplan/serve"
)

func parseServe(t *testing.T, args ...string) *Serve {
	t.Helper()
	f := &Serve{}
	fl := pflag.NewFlagSet("serve", pflag.ContinueOnError)
	f.Bind(fl)
	if err := fl.Parse(args); err != nil {
		t.Fatal(err)
	}
	return f
}

// Each check refuses with its own message; a valid command line passes.
func TestServeCheck(t *testing.T) {
	for _, tc := range []struct {
		args []string
		want string
	}{
		{nil, "serve needs --source: the git repository to reconcile from"},
		{[]string{"--source", "/srv/git/deploy.git", "--all", "--project", "shop"}, "give either --all or --project, not both"},
		{[]string{"--source", "/srv/git/deploy.git", "--notify-format", "xml"}, `unknown --notify-format "xml": want json, slack or teams`},
		{[]string{"--source", "/srv/git/deploy.git", "--interval", "500ms"}, "--interval 500ms is too short: at least 1s"},
		{[]string{"--source", "/srv/git/deploy.git", "--project", "shop", "--notify-format", "teams", "--interval", "1s"}, ""},
	} {
		err := parseServe(t, tc.args...).Check()
		if got := errString(err); got != tc.want {
			t.Errorf("%q: %q, want %q", tc.args, got, tc.want)
		}
	}
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// The flags become serve.Options: serve's defaults, the repository with
// its credential files, and what every project's plan and apply share.
func TestServeOptions(t *testing.T) {
	f := parseServe(t, "--source", "https://git.example.com/deploy.git", "--ref", "main", "--path", "clusters/prod",
		"--git-token-file", "/etc/git/token", "--project", "shop", "--listen", "", "--notify-webhook", "https://hooks.example.com/x")
	o, err := f.ServeOptions(func(k string) string { return map[string]string{"KUBEPLAN_LOCK_DURATION": "30s"}[k] }, "v1.4.0")
	if err != nil {
		t.Fatal(err)
	}
	if o.Interval != serve.DefaultInterval || o.Concurrency != serve.DefaultConcurrency || o.Listen != "" {
		t.Errorf("interval %s, concurrency %d, listen %q", o.Interval, o.Concurrency, o.Listen)
	}
	if s := o.Source; s.URL != "https://git.example.com/deploy.git" || s.Ref != "main" || s.Path != "clusters/prod" || s.Files.TokenFile != "/etc/git/token" {
		t.Errorf("source %+v", s)
	}
	if len(o.Projects) != 1 || o.Projects[0] != "shop" || o.Connect == nil || !o.Overrides.Decrypt {
		t.Errorf("projects %q, connect set %v, decrypt %v", o.Projects, o.Connect != nil, o.Overrides.Decrypt)
	}
	if o.Notify.Webhook != "https://hooks.example.com/x" || o.Notify.Format != "json" {
		t.Errorf("notify %+v", o.Notify)
	}
	if o.Plan.FieldManager != "kubeplan" || o.Apply.FieldManager != "kubeplan" || o.Apply.Version != "v1.4.0" || !o.Apply.Wait ||
		o.Apply.Timeout != serve.DefaultTimeout || o.Apply.LockDuration != 30*time.Second {
		t.Errorf("plan %+v, apply %+v", o.Plan, o.Apply)
	}
}

// A --clusters entry that does not parse fails the options, naming it.
func TestServeOptionsBadClusters(t *testing.T) {
	f := parseServe(t, "--source", "https://git.example.com/deploy.git", "--clusters", "=nothing")
	if _, err := f.ServeOptions(func(string) string { return "" }, "v1.4.0"); err == nil {
		t.Fatal("a --clusters entry without a name was accepted")
	}
}
