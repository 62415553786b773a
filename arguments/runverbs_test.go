package arguments

import (
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/source"
)

// parse binds a verb's flags on a fresh set and parses args.
func parse(t *testing.T, bind func(*pflag.FlagSet), args ...string) {
	t.Helper()
	fl := pflag.NewFlagSet("test", pflag.ContinueOnError)
	bind(fl)
	if err := fl.Parse(args); err != nil {
		t.Fatal(err)
	}
}

func env(vars map[string]string) func(string) string { return func(k string) string { return vars[k] } }

type seen struct{ revs []*source.Revision }

func (s *seen) Checked(rev *source.Revision) { s.revs = append(s.revs, rev) }

func TestPlanCheck(t *testing.T) {
	for _, c := range []struct {
		args    []string
		paths   []string
		format  string
		wantErr string
	}{
		{args: nil, format: "text"},
		{args: []string{"-o", "github"}, format: "text"},
		{args: []string{"-o", "json"}, format: "json"},
		{args: []string{"-o", "yaml"}, wantErr: `unknown --output "yaml": want one of text, markdown, json, github`},
		{args: []string{"--source", "/srv/git/shop.git"}, paths: []string{"app"}, wantErr: "give either --source or paths, not both"},
		{args: []string{"--ref", "main"}, wantErr: "--ref and --path go with --source"},
	} {
		f := &Plan{}
		parse(t, f.Bind, c.args...)
		format, err := f.Check(c.paths)
		if c.wantErr != "" {
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("%v: err = %v, want %q", c.args, err, c.wantErr)
			}
			continue
		}
		if err != nil || format != c.format {
			t.Errorf("%v: format %q, %v; want %q", c.args, format, err, c.format)
		}
	}
}

func TestApplyCheckAndAsks(t *testing.T) {
	for args, want := range map[string]string{
		"-o yaml":           `unknown --output "yaml": want one of text, json`,
		"--drift sometimes": `unknown --drift "sometimes": want repair or report`,
		"--drift report":    "",
	} {
		f := &Apply{}
		parse(t, f.Bind, strings.Fields(args)...)
		err := f.Check(nil)
		if (err == nil) != (want == "") || (err != nil && err.Error() != want) {
			t.Errorf("%s: err = %v, want %q", args, err, want)
		}
	}
	f := &Apply{}
	parse(t, f.Bind)
	if !f.Asks(true, "") || f.Asks(false, "") || f.Asks(true, "true") {
		t.Error("apply must ask in a terminal only, and never with CI=true")
	}
	for _, args := range [][]string{{"--auto-approve"}, {"--interval", "30s"}} {
		f := &Apply{}
		parse(t, f.Bind, args...)
		if f.Asks(true, "") {
			t.Errorf("%v: apply asks", args)
		}
	}
}

func TestApplyOptions(t *testing.T) {
	f := &Apply{}
	parse(t, f.Bind, "--field-manager", "ci", "--allow-empty", "--wait=false", "--timeout", "2m", "--replace", "deployment/web", "--adopt", "--concurrency", "3")
	deadline := time.Now()
	o := f.ApplyOptions("v9", 5*time.Second, deadline)
	if o.FieldManager != "ci" || !o.AllowEmpty || o.Wait || o.Timeout != 2*time.Minute || len(o.Replace) != 1 || !o.Adopt ||
		o.Concurrency != 3 || o.Version != "v9" || o.LockDuration != 5*time.Second || !o.Deadline.Equal(deadline) {
		t.Fatalf("apply options = %+v", o)
	}
	for v, want := range map[string]time.Duration{"": 0, "90s": 90 * time.Second, "10ms": 0, "soon": 0} {
		if got := LockDuration(env(map[string]string{"KUBEPLAN_LOCK_DURATION": v})); got != want {
			t.Errorf("LockDuration(%q) = %v, want %v", v, got, want)
		}
	}
}

func TestStatusCheck(t *testing.T) {
	for args, want := range map[string]string{
		"-o yaml --applyset configmap/x": `unknown --output "yaml": want text or json`,
		"":                               "--applyset is required (or select projects with --project, --all or --changed-since)",
		"--applyset configmap/x":         "",
		"--all":                          "",
	} {
		f := &Status{}
		parse(t, f.Bind, strings.Fields(args)...)
		err := f.Check(nil)
		if (err == nil) != (want == "") || (err != nil && err.Error() != want) {
			t.Errorf("%q: err = %v, want %q", args, err, want)
		}
	}
	f := &Status{}
	parse(t, f.Bind, "--applyset", "configmap/x")
	if err := f.Check([]string{"app"}); err == nil || !strings.Contains(err.Error(), "status takes no PATH") {
		t.Errorf("a PATH without a selection: %v", err)
	}
}

// The requests: plan withholds the Secrets' data from lookups, apply may
// read a saved plan and names no commit for one project, a flag naming
// one set is refused over projects.
func TestRequests(t *testing.T) {
	vars := env(map[string]string{kube.ClustersEnv: "prod=/etc/prod"})
	p := &Plan{}
	parse(t, p.Bind, "--all", "-n", "shop", "--clusters", "dev", "--source", "/srv/shop.git", "--ref", "main", "--field-manager", "ci")
	q := p.Request(nil, vars, nil, &seen{})
	if !q.Projects || !q.Plan.SecretDataWithheld || q.SavedPlan || q.Observer == nil || q.Plan.FieldManager != "ci" ||
		q.Git.URL != "/srv/shop.git" || q.Git.Ref != "main" || q.ClustersEnv != "prod=/etc/prod" || len(q.Clusters) != 1 {
		t.Fatalf("plan request = %+v", q)
	}
	if q.Refused == nil || !strings.Contains(q.Refused.Error(), "--namespace names one set") {
		t.Fatalf("-n with --all: refused = %v", q.Refused)
	}
	a := &Apply{}
	parse(t, a.Bind, "-n", "shop", "--applyset", "configmap/x")
	q = a.Request([]string{"tfplan"}, vars, nil, &seen{})
	if q.Projects || !q.SavedPlan || q.Observer != nil || q.Plan.SecretDataWithheld || q.Refused != nil || q.ApplySet != "configmap/x" {
		t.Fatalf("plain apply request = %+v", q)
	}
	a = &Apply{}
	parse(t, a.Bind, "--project", "web")
	if q = a.Request(nil, vars, nil, &seen{}); q.Observer == nil || !q.Projects {
		t.Fatalf("apply over projects request = %+v", q)
	}
	s := &Status{}
	parse(t, s.Bind, "--all", "--applyset", "configmap/x")
	if q = s.Request(nil, vars, nil); !q.Status || !q.Projects || q.Refused == nil {
		t.Fatalf("status request = %+v", q)
	}
}

// The GitHub view: a plain invocation's set, or the projects' scope;
// the tokens and a git password are masked.
func TestView(t *testing.T) {
	vars := env(map[string]string{"GITHUB_TOKEN": "ghs_env", "GITHUB_REPOSITORY": "acme/shop", "GITHUB_WORKFLOW": "plan"})
	p := &Plan{}
	parse(t, p.Bind, "--token", "kube-token", "--context", "prod", "--applyset", "configmap/x", "--comment=false")
	as := applyset.Parent{Kind: "ConfigMap", Name: "x", Namespace: "shop"}
	o := p.View(vars, "v1", &run.Target{Client: &kube.Client{Namespace: "shop"}, Parent: &as}, nil)
	if !o.Single || o.Cluster != "prod" || o.Namespace != "shop" || o.ApplySet != as.String() || o.Token != "ghs_env" || o.Comment ||
		o.Version != "v1" || o.Secrets[0] != "kube-token" {
		t.Fatalf("plain plan view = %+v", o)
	}
	p = &Plan{}
	parse(t, p.Bind, "--all", "--github-token", "ghs_flag", "--source", "https://bot:p4ss@git.example.com/shop.git")
	o = p.View(vars, "v1", &run.Target{}, &run.Prepared{ConfigFile: "kubeplan.yaml"})
	if o.Single || !strings.HasPrefix(o.Scope, "acme/shop:") || !strings.HasSuffix(o.Scope, "kubeplan.yaml@plan") || o.Token != "ghs_flag" || !o.Comment || o.Secrets[1] != "p4ss" {
		t.Fatalf("projects plan view = %+v", o)
	}
	a := &Apply{}
	parse(t, a.Bind)
	if o = a.View(vars, "v1", &run.Target{Client: &kube.Client{Namespace: "shop"}}, nil); o.Comment || o.Token != "ghs_env" || !o.Single || o.ApplySet != "" {
		t.Fatalf("plain apply view = %+v", o)
	}
}
