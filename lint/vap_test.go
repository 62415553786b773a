package lint

import (
	"fmt"
	"slices"
	"testing"
)

// Policies from --policies and from the set judge the set the same way
// streamed and kept (plan and apply keep the objects), and a rule setting
// re-grades their findings like any other rule's.
func TestCheckAdmissionPolicies(t *testing.T) {
	const pol, res = "admission/testdata/policies.yaml", "admission/testdata/resources.yaml"
	summary := func(rep Report) []string {
		var out []string
		for _, f := range rep.Findings {
			if f.Rule == "admission-policy" {
				out = append(out, fmt.Sprintf("%s:%d:%d %s %s", f.File, f.Line, f.Col, f.Severity, f.Object))
			}
		}
		return out
	}
	want := []string{
		pol + ":83:42 error ",
		res + ":8:1 info deployment.apps/web",
		res + ":8:1 error deployment.apps/web", // a validation has no fieldPath: at the object's start
		res + ":21:1 info deployment.apps/small",
		res + ":47:1 warning pod/big",
	}
	for _, in := range []Input{
		{Paths: []string{res}, PolicyPaths: []string{pol}},
		{Paths: []string{res}, PolicyPaths: []string{pol}, KeepObjects: true},
		{Paths: []string{res, pol}},
		{Paths: []string{res, pol}, KeepObjects: true},
	} {
		rep, _, err := Check(in, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if got := summary(rep); !slices.Equal(got, want) {
			t.Errorf("%+v:\n got %q\nwant %q", in, got, want)
		}
	}
	rep, _, err := Check(Input{Paths: []string{res}, PolicyPaths: []string{pol}}, Options{Rules: map[string]RuleSetting{"admission-policy": {Severity: Warning}}})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Count(Error) != 0 || rep.Count(Warning) != 5 {
		t.Errorf("re-graded: %d errors, %d warnings", rep.Count(Error), rep.Count(Warning))
	}
}
