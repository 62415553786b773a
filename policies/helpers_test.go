package policies

import (
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
)

// want is one expected violation: its path and a substring of its message.
type want struct {
	path []string
	msg  string
}

type ruleCase struct {
	name string
	yaml string
	opts Options
	want []want
}

func parse(t *testing.T, file, src string) []*manifest.Object {
	t.Helper()
	objs, probs := manifest.Parse(file, []byte(src))
	for _, p := range probs {
		t.Fatalf("parse: %v", p)
	}
	return objs
}

// runRule checks every case against the rule with the given id.
func runRule(t *testing.T, id string, cases []ruleCase) {
	t.Helper()
	r, ok := ByID(id)
	if !ok {
		t.Fatalf("rule %q not registered", id)
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got := r.Check(parse(t, "in.yaml", tc.yaml), tc.opts)
			if len(got) != len(tc.want) {
				t.Fatalf("got %d violations, want %d:\n%s", len(got), len(tc.want), dump(got))
			}
			for i, w := range tc.want {
				g := got[i]
				if g.Object == nil {
					t.Fatalf("violation %d has no object", i)
				}
				if !slices.Equal(g.Path, w.path) {
					t.Errorf("violation %d path = %q, want %q", i, g.Path, w.path)
				}
				if !g.Object.Has(g.Path...) {
					t.Errorf("violation %d path %q does not exist in the object", i, g.Path)
				}
				if !strings.Contains(g.Message, w.msg) {
					t.Errorf("violation %d message = %q, want it to contain %q", i, g.Message, w.msg)
				}
			}
		})
	}
}

func dump(vs []Violation) string {
	var b strings.Builder
	for _, v := range vs {
		b.WriteString("  " + v.Object.String() + " " + strings.Join(v.Path, ".") + ": " + v.Message + "\n")
	}
	return b.String()
}
