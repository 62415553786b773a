package arguments

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// checker is a verb's arguments with an --output check.
type checker interface {
	Bind(*pflag.FlagSet)
	Check() error
}

// projects, policy test and comment take the formats of their views, with
// their default, and refuse another --output naming the formats.
func TestOutputChecks(t *testing.T) {
	for _, tc := range []struct {
		verb    string
		args    checker
		good    string
		formats string
	}{
		{"projects", &Projects{}, "json", "text, json"},
		{"policy test", &PolicyTest{}, "json", "text, json"},
		{"comment", &Comment{}, "text", "text, markdown, json"},
	} {
		fl := pflag.NewFlagSet(tc.verb, pflag.ContinueOnError)
		tc.args.Bind(fl)
		if err := fl.Parse(nil); err != nil {
			t.Fatal(err)
		}
		if err := tc.args.Check(); err != nil {
			t.Errorf("%s: the default --output is refused: %v", tc.verb, err)
		}
		for out, ok := range map[string]bool{tc.good: true, "yaml": false, "": false} {
			if err := fl.Set("output", out); err != nil {
				t.Fatal(err)
			}
			err := tc.args.Check()
			if ok && err != nil {
				t.Errorf("%s -o %s: %v", tc.verb, out, err)
			}
			if want := `unknown --output "` + out + `": want one of ` + tc.formats; !ok && (err == nil || err.Error() != want) {
				t.Errorf("%s -o %q: %v, want %s", tc.verb, out, err, want)
			}
		}
	}
}

// projects' flags fill the config, excludes and the selection by change;
// comment's default config is kubeplan.yaml.
func TestProjectsAndCommentFlags(t *testing.T) {
	p := &Projects{}
	fl := pflag.NewFlagSet("projects", pflag.ContinueOnError)
	p.Bind(fl)
	if err := fl.Parse([]string{"--config", "ci.yaml", "--exclude", "old/**", "--changed-since", "HEAD~1"}); err != nil {
		t.Fatal(err)
	}
	o := p.Input.Overrides(&p.Select)
	if o.ConfigFile != "ci.yaml" || len(o.Exclude) != 1 || o.ChangedSince != "HEAD~1" || p.Output != "text" {
		t.Errorf("projects: %+v, output %q", o, p.Output)
	}
	c := &Comment{}
	fl = pflag.NewFlagSet("comment", pflag.ContinueOnError)
	c.Bind(fl)
	if err := fl.Parse([]string{"--github-token", "t0k"}); err != nil {
		t.Fatal(err)
	}
	if c.Config != "kubeplan.yaml" || c.GitHubToken != "t0k" || c.Output != "markdown" {
		t.Errorf("comment: %+v", c)
	}
	if strings.Contains(c.Output, "t0k") {
		t.Error("token in output")
	}
}
