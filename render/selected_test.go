package render

import (
	"strings"
	"testing"
)

func TestNothingSelected(t *testing.T) {
	var b strings.Builder
	NothingSelected(&b, "plan")
	if got, want := b.String(), "kubeplan: no project selected: nothing to plan\n"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
