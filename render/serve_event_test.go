package render

import (
	"errors"
	"strings"
	"testing"
)

// The Event notes of kubeplan serve's runs: counts on success, the error
// and lint's findings on failure, cut to the API server's limit.
func TestEventNote(t *testing.T) {
	bad := EventRun{Revision: "fedcba9876543210", Err: errors.New("lint found 1 error(s)"), Findings: []string{"app/cm.yaml:6:3: invalid YAML"}}
	for _, c := range []struct {
		r    EventRun
		want string
	}{
		{EventRun{Revision: "0123456789abcdef", Subject: "bump", Applied: 2, Unchanged: 48}, "revision 0123456 (bump): 2 applied, 0 pruned, 48 unchanged"},
		{EventRun{Revision: "0123456789", Pruned: 3}, "revision 0123456: 0 applied, 3 pruned, 0 unchanged"},
		{bad, "revision fedcba9: lint found 1 error(s); app/cm.yaml:6:3: invalid YAML"},
	} {
		if got := EventNote(c.r); got != c.want {
			t.Errorf("note %q, want %q", got, c.want)
		}
	}
	long := bad
	long.Err = errors.New(strings.Repeat("x", 2000))
	if got := EventNote(long); len(got) != MaxEventNote || !strings.HasSuffix(got, "x...") {
		t.Errorf("a long note is %d bytes: ...%q", len(got), got[len(got)-10:])
	}
}
