package admissiondiff

import (
	"github.com/kubeplan/kubeplan/internal/testing/publicdata"
	"path/filepath"
	"strings"
	"testing"
)

// Offline, lint accepts every policy of the staged public library and
// the binding its README shows for each (the integration test proves the
// API server creates them all), and refuses every planted defect, naming
// the field the defect is in.
func TestLibraryPolicies(t *testing.T) {
	lib := publicdata.Dir(t, LibrarySub)
	cases, err := LibraryCases(lib)
	if err != nil {
		t.Fatal(err)
	}
	if len(cases) < 200 {
		t.Fatalf("%d cases, want the library's 50 and more policies, their bindings and a defect of each", len(cases))
	}
	crds := filepath.Join(lib, LibraryCRDs)
	for _, mode := range []LintMode{AsPolicies, AsLinted} {
		js, err := LintJudgements(t.TempDir(), cases, mode, crds)
		if err != nil {
			t.Fatal(err)
		}
		for i, c := range cases {
			defective := strings.Contains(c.Name, " with ")
			if js[i].Refused != defective {
				t.Errorf("mode %d, %s: lint says %s", mode, c.Name, js[i])
			}
		}
	}
}
