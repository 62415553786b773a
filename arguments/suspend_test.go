package arguments

import (
	"slices"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

// TestSuspendCheck: suspend needs a reason and a project or a set; the
// PROJECT arguments select projects; resume needs no reason.
func TestSuspendCheck(t *testing.T) {
	parse := func(verb string, args ...string) (*Suspend, error) {
		f := &Suspend{}
		fl := pflag.NewFlagSet(verb, pflag.ContinueOnError)
		f.Bind(fl, verb)
		if err := fl.Parse(args); err != nil {
			t.Fatal(err)
		}
		return f, f.Check(fl.Args())
	}
	if _, err := parse("suspend", "web"); err == nil || !strings.Contains(err.Error(), "--reason is required") {
		t.Errorf("suspend without --reason: %v", err)
	}
	if _, err := parse("suspend", "web", "--reason", "  "); err == nil {
		t.Error("a blank reason is no reason")
	}
	if _, err := parse("suspend", "--reason", "x"); err == nil || !strings.Contains(err.Error(), "name a project") {
		t.Errorf("suspend of nothing: %v", err)
	}
	f, err := parse("suspend", "web", "api", "--reason", "incident 123")
	if err != nil || !slices.Equal(f.Select.Projects, []string{"web", "api"}) || f.Reason != "incident 123" {
		t.Errorf("suspend web api: %v %+v", err, f.Select)
	}
	if f, err := parse("resume", "-n", "store", "--applyset", "configmap/x"); err != nil || f.Select.On() {
		t.Errorf("resume of a set: %v", err)
	}
}

// TestSyncCheck: sync's arguments are projects, or with --applyset the
// set's paths; --via-serve takes no path.
func TestSyncCheck(t *testing.T) {
	parse := func(args ...string) (*Sync, error) {
		f := &Sync{}
		fl := pflag.NewFlagSet("sync", pflag.ContinueOnError)
		f.Bind(fl)
		if err := fl.Parse(args); err != nil {
			t.Fatal(err)
		}
		return f, f.Check(fl.Args())
	}
	if f, err := parse("web", "--config", "repo/kubeplan.yaml"); err != nil || !slices.Equal(f.Select.Projects, []string{"web"}) || !slices.Equal(f.Paths(), []string{"repo"}) {
		t.Errorf("sync web: %v", err)
	}
	if f, err := parse("--applyset", "configmap/x", "manifests"); err != nil || f.Select.On() || !slices.Equal(f.Paths(), []string{"manifests"}) {
		t.Errorf("sync --applyset PATH: %v", err)
	}
	if _, err := parse("--applyset", "configmap/x", "--via-serve", "manifests"); err == nil {
		t.Error("--via-serve with a path")
	}
	if _, err := parse(); err == nil {
		t.Error("sync of nothing")
	}
	if _, err := parse("web", "--ignore-suspend", " "); err == nil {
		t.Error("a blank --ignore-suspend")
	}
}
