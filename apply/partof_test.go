package apply_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/plan"
)

const partOf = `jsonpath={.metadata.labels.applyset\.kubernetes\.io/part-of}`

// Applying without an ApplySet keeps the label of the set an object
// belongs to, so a later apply with the set still prunes it.
func TestIntegrationApplyWithoutSetKeepsPartOf(t *testing.T) {
	e := newEnv(t)
	e.write("configmap.yaml", settings)
	e.write("keep.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: keep}\n")
	e.runSet(&e.as)
	id := e.get("configmap", "settings", "-o", partOf)
	if !strings.HasPrefix(id, "applyset-") {
		t.Fatalf("part-of after the apply with the set = %q", id)
	}

	// Nothing changed: unchanged, proven without a dry-run, nothing written.
	p, r, cl := e.runSet(nil)
	if p.HasChanges() || outcomes(r) != "" || cl.Requests.Writes() != 0 || cl.Requests.Count("PATCH (dry-run)") != 0 {
		t.Errorf("no-op without the set: %s %q writes=%d dry-runs=%d", p.Summary(), outcomes(r), cl.Requests.Writes(), cl.Requests.Count("PATCH (dry-run)"))
	}
	for _, ch := range p.Changes {
		if ch.Diff != "" {
			t.Errorf("%s: diff %q", ch.Ref, ch.Diff)
		}
	}

	// A change without the set: written, and the label stays.
	e.write("configmap.yaml", strings.Replace(settings, "EUR", "USD", 1))
	p, r, _ = e.runSet(nil)
	if outcomes(r) != "configmap/settings configured" {
		t.Fatalf("change without the set: %q", outcomes(r))
	}
	if s := change(p, "configmap/settings"); s == nil || strings.Contains(s.Diff, "part-of") {
		t.Errorf("the diff touches the label: %+v", s)
	}
	if got := e.get("configmap", "settings", "-o", partOf); got != id {
		t.Errorf("part-of after the apply without the set = %q, want %q", got, id)
	}
	if got := e.get("configmap", "settings", "-o", "jsonpath={.data.currency}"); got != "USD" {
		t.Errorf("currency %q", got)
	}

	// The set still prunes it once it leaves git.
	if err := os.Remove(filepath.Join(e.dir, "configmap.yaml")); err != nil {
		t.Fatal(err)
	}
	p, r, _ = e.runSet(&e.as)
	if s := change(p, "configmap/settings"); outcomes(r) != "configmap/settings pruned" || s == nil || s.Action != plan.Prune {
		t.Errorf("prune from the set: %q %+v", outcomes(r), s)
	}
	if e.get("configmap", "settings", "-o", "name") != "" || e.get("configmap", "keep", "-o", "name") != "configmap/keep" {
		t.Error("prune removed the wrong objects")
	}
}
