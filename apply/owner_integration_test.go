package apply_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/plan"
)

func configMap(name, value string) string {
	return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\ndata:\n  value: \"" + value + "\"\n"
}

// planIn plans the manifests of dir with the ApplySet as, as the narrow
// identity, on a fresh client (its request counter starts at zero).
func (e *env) planIn(dir string, as *applyset.Parent) (*plan.Plan, *kube.Client) {
	e.t.Helper()
	res, err := loader.Load([]string{dir}, loader.Options{})
	if err != nil {
		e.t.Fatal(err)
	}
	cl := e.client()
	p, err := plan.Make(context.Background(), cl, res.Objects, plan.Options{Namespace: e.ns, ApplySet: as})
	if err != nil {
		e.t.Fatalf("plan: %v", err)
	}
	return p, cl
}

func (e *env) execute(cl *kube.Client, p *plan.Plan, as *applyset.Parent, adopt bool) (*apply.Result, error) {
	return apply.Execute(context.Background(), cl, p, apply.Options{ApplySet: as, Version: "test", Timeout: 60 * time.Second, Adopt: adopt})
}

// otherSet applies configmap/shared as a member of the ApplySet
// configmap/other-set and returns that set and its id.
func (e *env) otherSet() (applyset.Parent, string) {
	e.t.Helper()
	other := applyset.Parent{Kind: "ConfigMap", Name: "other-set", Namespace: e.ns}
	dir := e.t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "shared.yaml"), []byte(configMap("shared", "theirs")), 0o644); err != nil {
		e.t.Fatal(err)
	}
	p, cl := e.planIn(dir, &other)
	if _, err := e.execute(cl, p, &other, false); err != nil {
		e.t.Fatal(err)
	}
	return other, other.ID()
}

// An object of another ApplySet declared in this one: the plan names its
// owner, apply refuses it without writing anything, and takes it over
// only when adopting.
func TestIntegrationTakeoverOfAnotherSet(t *testing.T) {
	e := newEnv(t)
	_, otherID := e.otherSet()
	e.write("settings.yaml", settings)
	e.write("shared.yaml", configMap("shared", "ours"))

	p, cl := e.planIn(e.dir, &e.as)
	s := change(p, "configmap/shared")
	if s == nil || s.Action != plan.Update || s.Owner != "ApplySet configmap/other-set" {
		t.Fatalf("plan of the other set's object: %+v", s)
	}
	if c := change(p, "configmap/settings"); c == nil || c.Owner != "" {
		t.Errorf("a new object has an owner: %+v", c)
	}
	_, err := e.execute(cl, p, &e.as, false)
	if !errors.Is(err, apply.ErrOwnedElsewhere) || !strings.Contains(err.Error(), "configmap/shared (owned by ApplySet configmap/other-set)") || !strings.Contains(err.Error(), "--adopt") {
		t.Fatalf("apply without adopting: %v", err)
	}
	if n := cl.Requests.Writes(); n != 0 {
		t.Errorf("the refused apply wrote %d times", n)
	}
	if got := e.get("configmap", "shared", "-o", partOf); got != otherID {
		t.Errorf("part-of after the refusal = %q, want the other set's %q", got, otherID)
	}
	if e.get("configmap", "settings", "-o", "name") != "" || e.get("configmap", "gitops-applyset", "-o", "name") != "" {
		t.Error("the refused apply created objects")
	}

	p, cl = e.planIn(e.dir, &e.as)
	r, err := e.execute(cl, p, &e.as, true)
	if err != nil || !strings.Contains(outcomes(r), "configmap/shared configured") {
		t.Fatalf("apply adopting: %v %s", err, outcomes(r))
	}
	if got, want := e.get("configmap", "shared", "-o", partOf), e.as.ID(); got != want {
		t.Errorf("part-of after adopting = %q, want %q", got, want)
	}
	// Now it is ours: no owner, nothing to refuse.
	p, _ = e.planIn(e.dir, &e.as)
	if s := change(p, "configmap/shared"); s == nil || s.Action != plan.Unchanged || s.Owner != "" {
		t.Errorf("after adopting: %+v", s)
	}
}

// Objects of a Helm release or an Argo CD application are refused the same
// way, and keep their marks.
func TestIntegrationTakeoverOfHelmAndArgo(t *testing.T) {
	e := newEnv(t)
	e.c.Kubectl(t, "-n", e.ns, "create", "configmap", "chart", "--from-literal=value=helm")
	e.c.Kubectl(t, "-n", e.ns, "label", "configmap", "chart", "app.kubernetes.io/managed-by=Helm")
	e.c.Kubectl(t, "-n", e.ns, "annotate", "configmap", "chart", "meta.helm.sh/release-name=shop", "meta.helm.sh/release-namespace="+e.ns)
	e.c.Kubectl(t, "-n", e.ns, "create", "configmap", "synced", "--from-literal=value=argo")
	e.c.Kubectl(t, "-n", e.ns, "annotate", "configmap", "synced", "argocd.argoproj.io/tracking-id=shop:/ConfigMap:"+e.ns+"/synced")
	e.write("chart.yaml", configMap("chart", "ours"))
	e.write("synced.yaml", configMap("synced", "ours"))

	p, cl := e.planIn(e.dir, &e.as)
	if c := change(p, "configmap/chart"); c == nil || c.Owner != "Helm release shop in "+e.ns {
		t.Errorf("helm object: %+v", c)
	}
	if c := change(p, "configmap/synced"); c == nil || c.Owner != "Argo CD application shop" {
		t.Errorf("argo object: %+v", c)
	}
	_, err := e.execute(cl, p, &e.as, false)
	if !errors.Is(err, apply.ErrOwnedElsewhere) || !strings.Contains(err.Error(), "configmap/chart (owned by Helm release shop in "+e.ns+")") ||
		!strings.Contains(err.Error(), "configmap/synced (owned by Argo CD application shop)") {
		t.Fatalf("apply: %v", err)
	}
	if n := cl.Requests.Writes(); n != 0 {
		t.Errorf("the refused apply wrote %d times", n)
	}
	for _, name := range []string{"chart", "synced"} {
		if got := e.get("configmap", name, "-o", "jsonpath={.data.value}"); got == "ours" {
			t.Errorf("configmap/%s was written", name)
		}
		if got := e.get("configmap", name, "-o", partOf); got != "" {
			t.Errorf("configmap/%s got the label %q", name, got)
		}
	}
}

// The set applies a and b, then b leaves git. Between the plan and the
// apply, b is relabelled into another set: it is not pruned, and the run
// does not fail.
func TestIntegrationPruneSkipsObjectRelabelledIntoAnotherSet(t *testing.T) {
	e := newEnv(t)
	e.write("a.yaml", configMap("a", "1"))
	e.write("b.yaml", configMap("b", "2"))
	p, cl := e.planIn(e.dir, &e.as)
	if _, err := e.execute(cl, p, &e.as, false); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(e.dir, "b.yaml")); err != nil {
		t.Fatal(err)
	}
	p, cl = e.planIn(e.dir, &e.as)
	if c := change(p, "configmap/b"); c == nil || c.Action != plan.Prune || c.LiveUID == "" {
		t.Fatalf("plan: %+v", c)
	}
	otherID := applyset.Parent{Kind: "ConfigMap", Name: "other-set", Namespace: e.ns}.ID()
	e.c.Kubectl(t, "-n", e.ns, "label", "--overwrite", "configmap", "b", "applyset.kubernetes.io/part-of="+otherID)

	r, err := e.execute(cl, p, &e.as, false)
	if err != nil {
		t.Fatalf("apply: %v", err)
	}
	want := apply.ObjectResult{Ref: change(p, "configmap/b").Ref, Outcome: apply.Skipped, Detail: "now belongs to ApplySet " + otherID}
	if got := result(r, "configmap/b"); got == nil || *got != want {
		t.Errorf("result for b = %+v, want %+v", got, want)
	}
	if cl.Requests.Count("DELETE") != 0 {
		t.Errorf("%d deletes", cl.Requests.Count("DELETE"))
	}
	if e.get("configmap", "b", "-o", partOf) != otherID {
		t.Error("configmap/b is gone or lost the other set's label")
	}
}

// b leaves git; between the plan and the apply it is deleted and created
// again under the same name (still labelled): the new object is not pruned.
func TestIntegrationPruneSkipsRecreatedObject(t *testing.T) {
	e := newEnv(t)
	e.write("a.yaml", configMap("a", "1"))
	e.write("b.yaml", configMap("b", "2"))
	p, cl := e.planIn(e.dir, &e.as)
	if _, err := e.execute(cl, p, &e.as, false); err != nil {
		t.Fatal(err)
	}
	if err := os.Remove(filepath.Join(e.dir, "b.yaml")); err != nil {
		t.Fatal(err)
	}
	p, cl = e.planIn(e.dir, &e.as)
	old := change(p, "configmap/b")
	if old == nil || old.Action != plan.Prune {
		t.Fatalf("plan: %+v", old)
	}
	e.c.Kubectl(t, "-n", e.ns, "delete", "configmap", "b")
	e.c.Kubectl(t, "-n", e.ns, "create", "configmap", "b", "--from-literal=value=new")
	e.c.Kubectl(t, "-n", e.ns, "label", "configmap", "b", "applyset.kubernetes.io/part-of="+e.as.ID())
	uid := e.get("configmap", "b", "-o", "jsonpath={.metadata.uid}")
	if uid == old.LiveUID {
		t.Fatal("the recreated object has the old uid")
	}

	_, err := e.execute(cl, p, &e.as, false)
	if err == nil || !strings.Contains(err.Error(), "configmap/b was deleted and created again since the plan was made") {
		t.Errorf("apply: %v", err)
	}
	if cl.Requests.Count("DELETE") != 0 {
		t.Errorf("%d deletes", cl.Requests.Count("DELETE"))
	}
	if got := e.get("configmap", "b", "-o", "jsonpath={.metadata.uid}"); got != uid {
		t.Errorf("configmap/b uid = %q, want the recreated %q", got, uid)
	}
}

// A member protected from prune that leaves git is released: it stays, with
// its data, loses the set's label (and only that), and a later plan no
// longer sees it.
func TestIntegrationReleaseProtectedMember(t *testing.T) {
	e := newEnv(t)
	e.write("a.yaml", configMap("a", "1"))
	e.write("kept.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: kept\n  labels: {team: shop}\ndata:\n  value: keep-me\n")
	p, cl := e.planIn(e.dir, &e.as)
	if _, err := e.execute(cl, p, &e.as, false); err != nil {
		t.Fatal(err)
	}
	e.c.Kubectl(t, "-n", e.ns, "annotate", "configmap", "kept", "kubeplan.dev/prune=disabled")
	if err := os.Remove(filepath.Join(e.dir, "kept.yaml")); err != nil {
		t.Fatal(err)
	}

	p, cl = e.planIn(e.dir, &e.as)
	c := change(p, "configmap/kept")
	if c == nil || c.Action != plan.Release || c.Reason != "prune disabled: kept, no longer managed" || !strings.Contains(c.Diff, "-    applyset.kubernetes.io/part-of: "+e.as.ID()) {
		t.Fatalf("plan: %+v", c)
	}
	if s := p.Summary(); s.Release != 1 || s.Prune != 0 || !p.HasChanges() {
		t.Errorf("summary %s", s)
	}
	r, err := e.execute(cl, p, &e.as, false)
	if err != nil || outcomes(r) != "configmap/kept kept, no longer managed (prune disabled)" {
		t.Fatalf("apply: %v %q", err, outcomes(r))
	}
	if cl.Requests.Count("DELETE") != 0 {
		t.Errorf("%d deletes", cl.Requests.Count("DELETE"))
	}
	if got := e.get("configmap", "kept", "-o", partOf); got != "" {
		t.Errorf("part-of after the release = %q", got)
	}
	for field, want := range map[string]string{"{.data.value}": "keep-me", "{.metadata.labels.team}": "shop", `{.metadata.annotations.kubeplan\.dev/prune}`: "disabled"} {
		if got := e.get("configmap", "kept", "-o", "jsonpath="+field); got != want {
			t.Errorf("%s after the release = %q, want %q", field, got, want)
		}
	}

	p, _ = e.planIn(e.dir, &e.as)
	if c := change(p, "configmap/kept"); c != nil {
		t.Errorf("a later plan lists the released object: %+v", c)
	}
	if p.HasChanges() {
		t.Errorf("a later plan has changes: %s", p.Summary())
	}
}

func result(r *apply.Result, ref string) *apply.ObjectResult {
	for i := range r.Objects {
		if r.Objects[i].Ref.String() == ref {
			return &r.Objects[i]
		}
	}
	return nil
}
