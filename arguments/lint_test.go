package arguments

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// parseLint binds lint's flags and parses args.
func parseLint(t *testing.T, args ...string) *Lint {
	t.Helper()
	f := &Lint{}
	fl := pflag.NewFlagSet("lint", pflag.ContinueOnError)
	f.Bind(fl)
	if err := fl.Parse(args); err != nil {
		t.Fatal(err)
	}
	return f
}

// --output wins; without it the format is github in GitHub Actions, else
// text; an --output lint has no view for is refused with the formats.
func TestLintFormat(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		github bool
		want   string
	}{
		{nil, false, "text"},
		{nil, true, "github"},
		{[]string{"-o", "sarif"}, true, "sarif"},
		{[]string{"--output", "json"}, false, "json"},
	} {
		got, err := parseLint(t, tc.args...).Format(tc.github)
		if err != nil || got != tc.want {
			t.Errorf("%q in GitHub %v: format %q, %v; want %q", tc.args, tc.github, got, err, tc.want)
		}
	}
	_, err := parseLint(t, "-o", "yaml").Format(false)
	if err == nil || !strings.HasPrefix(err.Error(), `unknown --output "yaml": want one of text, `) {
		t.Errorf("unknown --output: %v", err)
	}
	// --output "" given is refused, not taken for the default
	if _, err := parseLint(t, "--output=").Format(false); err == nil {
		t.Error(`--output "" is no error`)
	}
}

// lint's selection flags fill Select, --policies and --concurrency fill
// Input, and the input flags turn into the workspace's overrides.
func TestLintFlags(t *testing.T) {
	f := parseLint(t, "--project", "web", "--project", "api", "--all", "--changed-since", "origin/main",
		"-n", "shop", "--policies", "vap/", "--concurrency", "3", "--kube-version", "1.34", "--list-rules")
	if !slices.Equal(f.Select.Projects, []string{"web", "api"}) || !f.Select.All || f.Select.ChangedSince != "origin/main" || !f.Select.On() {
		t.Errorf("selection: %+v", f.Select)
	}
	if f.Namespace != "shop" || !f.ListRules {
		t.Errorf("namespace %q, list-rules %v", f.Namespace, f.ListRules)
	}
	o := f.Input.Overrides(&f.Select)
	if !slices.Equal(o.Policies, []string{"vap/"}) || o.Concurrency != 3 || o.KubeVersion == nil || *o.KubeVersion != "1.34" ||
		!o.Selecting() || o.Decrypt {
		t.Errorf("overrides: %+v", o)
	}
}

// The help texts of lint, projects, policy test and comment exist, end
// with their exit codes, and their examples run the verb.
func TestVerbHelp(t *testing.T) {
	for verb, cmdline := range map[string]string{"lint": "kubeplan lint", "projects": "kubeplan projects",
		"policy-test": "kubeplan policy test", "comment": "kubeplan comment"} {
		if h := Help(verb); !strings.Contains(h, "Exit codes") || strings.Contains(h, "{{") || strings.HasSuffix(h, "\n") {
			t.Errorf("help of %s: %q", verb, h)
		}
		for _, line := range strings.Split(Example(verb), "\n") {
			if !strings.Contains(line, cmdline) {
				t.Errorf("example of %s: %q", verb, line)
			}
		}
	}
}
