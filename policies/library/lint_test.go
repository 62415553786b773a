package library

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest"
)

// TestLibraryLintsClean lints the whole library as `kubeplan lint
// policies/library` does: no errors and no warnings (object names are unique
// across the directories, so the set has no duplicate-object) but the
// denials of the library's own policies, which judge every fixture of the
// set (each policy compiles and evaluates: no other admission-policy
// finding, and each denies something), and the only infos are the
// kubeplan-test.yaml files, recognised as kubeplan's own.
func TestLibraryLintsClean(t *testing.T) {
	t.Setenv("KUBEPLAN_CACHE_DIR", t.TempDir())
	rep, _, err := lint.Check(lint.Input{Paths: []string{"."}}, lint.Options{})
	if err != nil {
		t.Fatal(err)
	}
	denied := map[string]bool{}
	for _, f := range rep.Findings {
		if f.Severity == lint.Info && f.Rule == manifest.RuleToolConfig {
			continue
		}
		if f.Severity == lint.Error && f.Rule == "admission-policy" && strings.HasPrefix(f.Message, "denied by ValidatingAdmissionPolicy ") {
			policy, _, _ := strings.Cut(strings.TrimPrefix(f.Message, "denied by ValidatingAdmissionPolicy "), " ")
			denied[policy] = true
			continue
		}
		t.Errorf("%s:%d:%d: %s %s: %s", f.File, f.Line, f.Col, f.Severity, f.Rule, f.Message)
	}
	for _, d := range dirs(t) {
		if !denied[d] {
			t.Errorf("policy %s denied nothing in the library's fixtures", d)
		}
	}
	if want := len(dirs(t)); rep.Files != 3*want {
		t.Errorf("linted %d files, want %d (policy.yaml, resources.yaml, kubeplan-test.yaml in each of %d directories)", rep.Files, 3*want, want)
	}
}
