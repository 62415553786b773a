package arguments

import (
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestOrphansCheck(t *testing.T) {
	f := &Orphans{}
	f.Bind(pflag.NewFlagSet("orphans", pflag.ContinueOnError))
	if err := f.Check(nil); err != nil {
		t.Errorf("a plain invocation without --applyset: %v", err)
	}
	f.Output = "yaml"
	if err := f.Check(nil); err == nil || !strings.Contains(err.Error(), `unknown --output "yaml"`) {
		t.Errorf("--output yaml: %v", err)
	}
	f.Output = "json"
	if err := f.Check([]string{"app"}); err == nil || !strings.Contains(err.Error(), "orphans takes no PATH") {
		t.Errorf("a PATH without a selection: %v", err)
	}
	f.Select.All = true
	if err := f.Check([]string{"."}); err != nil {
		t.Errorf("--all with a PATH: %v", err)
	}
	q := f.Request([]string{"."}, func(string) string { return "" }, nil)
	if !q.Status || !q.Projects {
		t.Errorf("orphans reads no source and runs over the projects: %+v", q)
	}
}
