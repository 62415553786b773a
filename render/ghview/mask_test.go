package ghview

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
)

func TestMaskerOnce(t *testing.T) {
	var b strings.Builder
	m := newMasker(&b)
	m.add("ghs_token1234", "")
	m.objects([]*manifest.Object{
		{Content: map[string]any{"apiVersion": "v1", "kind": "Secret", "stringData": map[string]any{"a": "hunter22", "b": "ok"}}},
		{Content: map[string]any{"apiVersion": "v1", "kind": "ConfigMap", "data": map[string]any{"a": "not-secret"}}},
	})
	m.plan(&plan.Plan{Changes: []plan.Change{{Object: map[string]any{"apiVersion": "v1", "kind": "Secret", "stringData": map[string]any{"a": "hunter22", "c": "line one\nline two"}}}}})
	want := "::add-mask::ghs_token1234\n::add-mask::hunter22\n::add-mask::line one\n::add-mask::line two\n"
	if b.String() != want {
		t.Errorf("masks:\n%s\nwant:\n%s", b.String(), want)
	}
	if got := m.scrub("token ghs_token1234, password hunter22, not-secret, ok"); got != "token ***, password ***, not-secret, ok" {
		t.Errorf("scrub = %q", got)
	}
}
