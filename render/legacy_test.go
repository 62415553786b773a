package render

import (
	"strings"
	"testing"
)

// The notice names the former file and the one to rename it to, on one
// line.
func TestLegacyNotice(t *testing.T) {
	var b strings.Builder
	LegacyNotice(&b)
	if got, want := b.String(), "kubeplan: .kubeplan.yaml is read for now; rename it to kubeplan.yaml\n"; got != want {
		t.Errorf("notice = %q, want %q", got, want)
	}
}
