package main

import (
	"net/http"
	"net/url"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/applyset"
)

func TestWriteWithoutRemovesOneConfigMapPerFile(t *testing.T) {
	src, dst := filepath.Join(t.TempDir(), "c"), filepath.Join(t.TempDir(), "d")
	if _, err := generate(src, tiny); err != nil {
		t.Fatal(err)
	}
	removed, err := writeWithout(src, dst, 4)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"ConfigMap/catalog-000-config-03", "ConfigMap/orders-000-config-04", "ConfigMap/payments-000-config-04", "ConfigMap/search-000-config-04"}
	if strings.Join(removed, " ") != strings.Join(want, " ") {
		t.Errorf("removed %v, want %v", removed, want)
	}
	before, _ := loadCorpus(src)
	after, err := loadCorpus(dst)
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(before)-4 {
		t.Fatalf("%d objects left of %d, want 4 fewer", len(after), len(before))
	}
	gone := map[string]bool{}
	for _, r := range removed {
		gone[r] = true
	}
	for _, o := range after {
		if gone[o.GetKind()+"/"+o.GetName()] {
			t.Errorf("%s/%s still there", o.GetKind(), o.GetName())
		}
	}
	if _, err := writeWithout(src, dst, 6); err == nil {
		t.Error("removing more ConfigMaps than files allow did not fail")
	}
}

func TestDiffSnapshots(t *testing.T) {
	before := snapshot{RV: map[string]string{"ConfigMap/a": "5", "ConfigMap/b": "6", "Deployment/c": "7"}, MaxRV: 7}
	if d := diffSnapshots(before, before); !d.unchanged() || !d.prunedExactly(nil) {
		t.Errorf("same snapshot: %+v", d)
	}
	after := snapshot{RV: map[string]string{"ConfigMap/a": "5", "Deployment/c": "9"}, MaxRV: 9}
	d := diffSnapshots(before, after)
	if d.unchanged() || strings.Join(d.Changed, ",") != "Deployment/c" || strings.Join(d.Removed, ",") != "ConfigMap/b" {
		t.Errorf("diff %+v", d)
	}
	if !d.prunedExactly([]string{"ConfigMap/b"}) || d.prunedExactly([]string{"ConfigMap/a"}) {
		t.Errorf("prunedExactly wrong for %+v", d)
	}
}

func TestParseApplyOutputs(t *testing.T) {
	kp, err := parseKubeplanApply([]byte("configmap/a created\nconfigmap/b pruned\nApply: 1 created, 2 configured, 1 pruned, 7 unchanged.\n"))
	if err != nil || kp.Applied != 3 || kp.Pruned != 1 || kp.Unchanged != 7 || kp.Summary != "1 created, 2 configured, 1 pruned, 7 unchanged" {
		t.Errorf("kubeplan: %+v, %v", kp, err)
	}
	if _, err := parseKubeplanApply([]byte("oops\n")); err == nil {
		t.Error("no summary accepted")
	}
	kc := parseKubectlApply([]byte("configmap/a serverside-applied\ndeployment.apps/b serverside-applied\nconfigmap/c pruned\n"))
	if kc.Applied != 2 || kc.Pruned != 1 || kc.Summary != "2 serverside-applied, 1 pruned" {
		t.Errorf("kubectl: %+v", kc)
	}
}

func TestClassifyApply(t *testing.T) {
	p, err := applyset.ParseParentFlag(applySetFlag, "p-1")
	if err != nil {
		t.Fatal(err)
	}
	classOf := classifyApply(p)
	for _, tc := range []struct{ method, url, want string }{
		{"POST", "/apis/coordination.k8s.io/v1/namespaces/p-1/leases", "lock: POST Lease"},
		{"PATCH", "/api/v1/namespaces/p-1/configmaps/gitops-applyset?fieldManager=kubeplan&force=true", "ApplySet parent: PATCH"},
		{"GET", "/api/v1/namespaces/p-1/configmaps/gitops-applyset", "ApplySet parent: GET"},
		{"PATCH", "/api/v1/namespaces/p-1/configmaps/a?dryRun=All", "PATCH dry-run (server-side apply)"},
		{"PATCH", "/api/v1/namespaces/p-1/configmaps/a?force=true", "PATCH write (server-side apply)"},
		{"DELETE", "/api/v1/namespaces/p-1/configmaps/a", "DELETE (prune)"},
		{"GET", "/api/v1/namespaces/p-1/configmaps", "LIST live objects"},
	} {
		u, err := url.Parse("https://127.0.0.1:6443" + tc.url)
		if err != nil {
			t.Fatal(err)
		}
		if got := classOf(&http.Request{Method: tc.method, URL: u}); got != tc.want {
			t.Errorf("%s %s: %q, want %q", tc.method, tc.url, got, tc.want)
		}
	}
	if got := profilePath("out/cpu.out", "noop"); got != "out/cpu-noop.out" {
		t.Errorf("profilePath: %q", got)
	}
}

func TestApplyMarkdownVerdicts(t *testing.T) {
	ci := &corpusInfo{Spec: smallSpec, Files: 100, Bytes: 1 << 19}
	removed := []string{"ConfigMap/a", "ConfigMap/b"}
	run := func(wall time.Duration, sc string) applyRun {
		r := applyRun{Sample: sample{Wall: wall}, Diff: stateDiff{MaxRVBefore: 9, MaxRVAfter: 9}}
		if sc == scPrune {
			r.Diff.Removed, r.Outcome.Pruned = removed, len(removed)
		}
		return r
	}
	rd := &applyRound{N: 1, Order: []string{tKubectl, tKubeplan}, Runs: map[string]map[string]applyRun{
		tKubectl:  {scFirst: run(30*time.Second, scFirst), scNoop: run(30*time.Second, scNoop), scPrune: run(40*time.Second, scPrune)},
		tKubeplan: {scFirst: run(time.Second, scFirst), scNoop: run(time.Second, scNoop), scPrune: run(time.Second, scPrune)},
	}, RawApply: sample{Wall: time.Second}, RawList: sample{Wall: 25 * time.Millisecond}, RawListed: 1201}
	r := &applyResult{Corpus: corpusSet{Dir: "corpus-1200", Info: ci}, PruneDir: "corpus-1200-minus100", Removed: removed,
		Rounds: []*applyRound{rd}, Commands: map[string]string{}, Anatomy: []*applyAnatomy{{Scenario: scNoop,
			Steps: []applyStep{{Name: "plan.Make", To: time.Second}}, Classes: []requestClass{{Name: "LIST live objects", Count: 3}}}}}
	for _, sc := range []string{scFirst, scPrune} {
		r.Anatomy = append(r.Anatomy, &applyAnatomy{Scenario: sc, Wall: time.Second})
	}
	md := r.markdown()
	saved := filepath.Join(t.TempDir(), "apply-result.json")
	if err := saveApplyResult(saved, r); err != nil {
		t.Fatal(err)
	}
	if back, err := loadApplyResult(saved); err != nil || back.markdown() != md {
		t.Errorf("the saved result renders differently (%v)", err)
	}
	if !strings.Contains(md, "- **No-op**: the target is 0.60 s") {
		t.Errorf("no analysis:\n%s", md)
	}
	for _, want := range []string{
		"**Result: FAIL** — first apply 0.033× (PASS); no-op 0.033×, objects written: 0 (FAIL); apply + prune 0.025×",
		"| LIST live objects | 3: 0 ms – 0 ms, Σ 0 ms |",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("markdown lacks %q:\n%s", want, md)
		}
	}
}
