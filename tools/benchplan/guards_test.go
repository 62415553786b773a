package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	yaml "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/plan"
)

// changedTiny generates the tiny corpus and its changed copy and loads
// both, object by object.
func changedTiny(t *testing.T) (plain, changed []*unstructured.Unstructured) {
	t.Helper()
	src, dst := filepath.Join(t.TempDir(), "c"), filepath.Join(t.TempDir(), "g")
	if _, err := generate(src, tiny); err != nil {
		t.Fatal(err)
	}
	if err := writeChanged(src, dst); err != nil {
		t.Fatal(err)
	}
	plain, err := loadCorpus(src)
	if err != nil {
		t.Fatal(err)
	}
	if changed, err = loadCorpus(dst); err != nil {
		t.Fatal(err)
	}
	if len(plain) != tiny.objects() || len(changed) != len(plain) {
		t.Fatalf("%d objects plain, %d changed, want %d", len(plain), len(changed), tiny.objects())
	}
	return plain, changed
}

// Every object of the changed copy differs from the corpus, by exactly
// the release: the version label, and for a Deployment 2 replicas and
// the next major image; undoing those gives the object back.
func TestWriteChangedUpdatesEveryObject(t *testing.T) {
	plain, changed := changedTiny(t)
	for i, o := range changed {
		p := plain[i]
		key := o.GetKind() + "/" + o.GetName()
		if reflect.DeepEqual(o.Object, p.Object) {
			t.Errorf("%s: unchanged", key)
		}
		if got := o.GetLabels()[guardsVersionLabel]; got != guardsVersion {
			t.Errorf("%s: label %s=%q, want %q", key, guardsVersionLabel, got, guardsVersion)
		}
		undo := o.DeepCopy()
		l := undo.GetLabels()
		delete(l, guardsVersionLabel)
		undo.SetLabels(l)
		if o.GetKind() == "Deployment" {
			if r, _, _ := unstructured.NestedFloat64(o.Object, "spec", "replicas"); r != guardsReplicas {
				t.Errorf("%s: %v replicas, want %d", key, r, guardsReplicas)
			}
			if tl, _, _ := unstructured.NestedStringMap(o.Object, "spec", "template", "metadata", "labels"); tl[guardsVersionLabel] != "" {
				t.Errorf("%s: the pod template got the version label", key)
			}
			cs, _, _ := unstructured.NestedSlice(undo.Object, "spec", "template", "spec", "containers")
			c := cs[0].(map[string]any)
			oldCS, _, _ := unstructured.NestedSlice(p.Object, "spec", "template", "spec", "containers")
			old := oldCS[0].(map[string]any)["image"].(string)
			if want := strings.Replace(old, ":1.", ":2.", 1); c["image"] != want {
				t.Errorf("%s: image %v, want %s (from %s)", key, c["image"], want, old)
			}
			c["image"] = old
			unstructured.SetNestedSlice(undo.Object, cs, "spec", "template", "spec", "containers")
			unstructured.SetNestedField(undo.Object, float64(1), "spec", "replicas")
		}
		if !reflect.DeepEqual(undo.Object, p.Object) {
			t.Errorf("%s differs beyond the release:\n%v\n%v", key, undo.Object, p.Object)
		}
	}
}

// A file laid out otherwise than the generator's is refused, not copied
// with some objects left as they were.
func TestChangeAppRefusesAnUnknownLayout(t *testing.T) {
	for _, tc := range []struct{ body, want string }{
		{"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: a\n", "0 of 1 objects got the app.kubernetes.io/version label"},
		{"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n  labels:\n    x: y\nspec:\n  replicas: 3\n", "0 of 1 Deployments have replicas: 1"},
		{"apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: a\n  labels:\n    x: y\nspec:\n  replicas: 1\n  template:\n    spec:\n      containers:\n        - name: a\n          image: registry.example.com/shop/a:3.1.0\n",
			`image "image: registry.example.com/shop/a:3.1.0" is not at a 1.x.y tag`},
	} {
		if _, err := changeApp(tc.body); err == nil || err.Error() != tc.want {
			t.Errorf("changeApp(%q): %v, want %q", tc.body, err, tc.want)
		}
	}
}

// guardsRule is a rule as the configs write it.
type guardsRule struct {
	Name, Scope, Expression, Outcome, Message string
	MessageExpression                         string `yaml:"messageExpression"`
}

func readGuards(t *testing.T, text string) (builtin map[string]string, rules []guardsRule) {
	t.Helper()
	var doc struct {
		Guards struct {
			Builtin map[string]string
			Rules   []guardsRule
		}
	}
	dec := yaml.NewDecoder(strings.NewReader(text))
	dec.KnownFields(true)
	if err := dec.Decode(&doc); err != nil {
		t.Fatal(err)
	}
	return doc.Guards.Builtin, doc.Guards.Rules
}

// The configs are what the brief asks: without rules, every built-in
// off and nothing else; with rules, the built-ins on and five rules, one
// reading change.after, one change.paths, one of plan scope, one with a
// messageExpression; both written where --config names them.
func TestGuardsConfigs(t *testing.T) {
	builtin, rules := readGuards(t, guardsWithoutRules)
	want := map[string]string{guard.ProtectPVC: "off", guard.ProtectNamespace: "off", guard.ProtectCRD: "off", guard.MassPrune: "off"}
	if !maps.Equal(builtin, want) || len(rules) != 0 {
		t.Errorf("without rules: builtin %v and %d rules, want %v and none", builtin, len(rules), want)
	}
	builtin, rules = readGuards(t, guardsWithRules)
	if len(builtin) != 0 || len(rules) != guardsUserRules {
		t.Fatalf("with rules: builtin %v and %d rules, want none switched and %d", builtin, len(rules), guardsUserRules)
	}
	has := map[string]string{}
	names := map[string]bool{}
	for _, r := range rules {
		if names[r.Name] || r.Name == "" || r.Expression == "" || r.Outcome == "" {
			t.Errorf("rule %+v: a duplicate or missing name, expression or outcome", r)
		}
		names[r.Name] = true
		for feature, ok := range map[string]bool{
			"after": strings.Contains(r.Expression, "change.after"), "paths": strings.Contains(r.Expression, "change.paths"),
			"plan": r.Scope == "plan", "messageExpression": r.MessageExpression != "", "deny": r.Outcome == "deny",
		} {
			if ok {
				has[feature] = r.Name
			}
		}
	}
	for _, f := range []string{"after", "paths", "plan", "messageExpression", "deny"} {
		if has[f] == "" {
			t.Errorf("no rule has %s", f)
		}
	}
	dir := t.TempDir()
	without, with, err := writeGuardsConfigs(dir)
	if err != nil {
		t.Fatal(err)
	}
	for file, text := range map[string]string{without: guardsWithoutRules, with: guardsWithRules} {
		if b, err := os.ReadFile(filepath.Join(dir, file)); err != nil || string(b) != text || filepath.Base(file) != "kubeplan.yaml" {
			t.Errorf("%s: %v, %d bytes", file, err, len(b))
		}
	}
}

// guardsSet parses and compiles a config's guards: as kubeplan does.
func guardsSet(t *testing.T, text string) *guard.Set {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	top := doc.Content[0]
	if len(top.Content) != 2 || top.Content[0].Value != "guards" {
		t.Fatalf("the config has %d keys, want guards: only", len(top.Content)/2)
	}
	c, files, err := guard.ParseConfig("kubeplan.yaml", top.Content[1])
	if err != nil || len(files) > 0 {
		t.Fatalf("ParseConfig: %v (files %v)", err, files)
	}
	s, err := guard.Compile(c)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// The rules compile and judge the changed tiny corpus
// as guardsExpected says, with the messages computed per change; without
// rules nothing is judged, and kubeplan builds no objects or paths for it.
func TestGuardsVerdictsOnTheChangedCorpus(t *testing.T) {
	plain, changed := changedTiny(t)
	in := guard.Plan{Namespace: "benchguards", ApplySet: applySetFlag, Members: int64(len(plain)),
		Counts: map[string]int64{"create": 0, "update": 0, "replace": 0, "prune": 0, "adopt": 0, "release": 0}, Kinds: map[string]map[string]int64{}}
	var cs []guard.Change
	for i, o := range changed {
		before, after := plan.Normalize(plain[i].Object), plan.Normalize(o.Object)
		gvk := o.GroupVersionKind()
		cs = append(cs, guard.Change{Action: "update", Group: gvk.Group, Version: gvk.Version, Kind: gvk.Kind, Namespace: "benchguards",
			Name: o.GetName(), Paths: plan.ChangedPaths(before, after), Before: before, After: after,
			Object: strings.ToLower(gvk.Kind) + "/" + o.GetName()})
		in.Counts["update"]++
		if in.Kinds[gvk.Kind] == nil {
			in.Kinds[gvk.Kind] = map[string]int64{}
		}
		in.Kinds[gvk.Kind]["update"]++
	}
	// The real plan has 1,200 changes; large-change's threshold is 500.
	in.Counts["update"] += 1000

	s := guardsSet(t, guardsWithRules)
	if !s.NeedsObjects() || !s.NeedsPaths() {
		t.Errorf("with rules: NeedsObjects %t, NeedsPaths %t, want both", s.NeedsObjects(), s.NeedsPaths())
	}
	vs, err := s.Evaluate(in, cs)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]int{}
	var msgs []string
	for _, v := range vs {
		got[v.Rule+" ("+string(v.Outcome)+")"]++
		if v.Rule == "replicas-changed" {
			msgs = append(msgs, v.Message)
		}
	}
	if want := guardsExpected(tiny); !maps.Equal(got, want) {
		t.Errorf("verdicts %s, want %s", verdictList(got), verdictList(want))
	}
	if want := fmt.Sprintf("scales deployment.apps/%s from 1 to %d", appName(0), guardsReplicas); !slices.Contains(msgs, want) {
		t.Errorf("replicas-changed messages %q lack %q", msgs, want)
	}

	s = guardsSet(t, guardsWithoutRules)
	if s.NeedsObjects() || s.NeedsPaths() {
		t.Errorf("without rules: NeedsObjects %t, NeedsPaths %t, want neither", s.NeedsObjects(), s.NeedsPaths())
	}
	if vs, err := s.Evaluate(in, cs); err != nil || len(vs) != 0 {
		t.Errorf("without rules: %d verdicts (%v), want none", len(vs), err)
	}
}

// The plan's verdicts are counted by rule and outcome from -o json.
func TestParseGuardsPlan(t *testing.T) {
	out := []byte(`{"version":1,"summary":{"add":0,"change":1200,"prune":0,"unchanged":0,"drifted":0},"changes":[],
"guards":[{"rule":"large-change","outcome":"warn","message":"writes 1200 objects at once"},
{"rule":"replicas-changed","outcome":"warn","message":"scales deployment.apps/a from 1 to 2","object":"deployment.apps/a"},
{"rule":"replicas-changed","outcome":"warn","message":"scales deployment.apps/b from 1 to 2","object":"deployment.apps/b"}]}`)
	p, err := parseGuardsPlan(out)
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]int{"large-change (warn)": 1, "replicas-changed (warn)": 2}; !maps.Equal(p.Verdicts, want) || p.Outcome.Changed != 1200 {
		t.Errorf("got %v and %d changed, want %v and 1200", p.Verdicts, p.Outcome.Changed, want)
	}
	if got := verdictList(p.Verdicts); got != "large-change (warn) ×1, replicas-changed (warn) ×2" {
		t.Errorf("verdictList: %q", got)
	}
}

// A plan that judges fewer changes than the corpus has, or verdicts
// without rules, is refused before anything is timed.
func TestGuardsCheckPlans(t *testing.T) {
	all := outcome{Changed: 1200, Summary: "0 to add, 1200 to change, 0 to prune, 0 unchanged, 0 drifted"}
	noop := outcome{Unchanged: 1200, Summary: "0 to add, 0 to change, 0 to prune, 1200 unchanged, 0 drifted"}
	r := &guardsResult{Changed: corpusSet{Info: &corpusInfo{Spec: smallSpec}}}
	for _, tc := range []struct {
		without, with guardsPlan
		want          string
	}{
		{guardsPlan{Outcome: all}, guardsPlan{Outcome: all}, ""},
		{guardsPlan{Outcome: noop}, guardsPlan{Outcome: all}, "the plan without rules found \"0 to add, 0 to change, 0 to prune, 1200 unchanged, 0 drifted\", want all 1200 objects changed"},
		{guardsPlan{Outcome: all, Verdicts: map[string]int{"mass-prune (require-approval)": 1}}, guardsPlan{Outcome: all}, "the plan without rules has verdicts (mass-prune (require-approval) ×1)"},
	} {
		r.WithoutPlan, r.WithPlan = tc.without, tc.with
		err := r.checkPlans()
		if (tc.want == "") != (err == nil) || err != nil && !strings.Contains(err.Error(), tc.want) {
			t.Errorf("checkPlans: %v, want %q", err, tc.want)
		}
	}
}

// The report's verdict follows the numbers it shows: PASS within the
// target, FAIL over it, NOT MEASURED when the rules gave other verdicts
// than they must (a stub engine gives none).
func TestGuardsMarkdown(t *testing.T) {
	info := &corpusInfo{Spec: smallSpec, Files: 100}
	smp := func(wallMS, cpuMS int) sample {
		return sample{Wall: time.Duration(wallMS) * time.Millisecond, CPU: time.Duration(cpuMS) * time.Millisecond}
	}
	all := outcome{Changed: 1200, Summary: "0 to add, 1200 to change, 0 to prune, 0 unchanged, 0 drifted"}
	r := &guardsResult{Runs: 3, Commands: map[string]string{}, Versions: map[string]string{},
		Base:     corpusSet{Namespace: "benchguards", Dir: "corpus-1200", Info: info},
		Changed:  corpusSet{Namespace: "benchguards", Dir: "corpus-1200-guards", Info: info},
		Without:  []sample{smp(2000, 3000), smp(2100, 3000), smp(2000, 3000)},
		With:     []sample{smp(2040, 3090), smp(2100, 3060), smp(2060, 3000)},
		Expected: guardsExpected(smallSpec), WithoutPlan: guardsPlan{Outcome: all},
		WithPlan: guardsPlan{Outcome: all, Verdicts: guardsExpected(smallSpec)}}
	md := r.markdown()
	for _, want := range []string{"**PASS**: with rules 1.020× the wall time", "CPU time 1.020×",
		"each of the 7 change rules (3 built-in, 4 of the team's) is evaluated 1,200 times",
		"verdicts: large-change (warn) ×1, replicas-changed (warn) ×100",
		"| without rules | 2.00 s | 2.00 s | 3.00 s |", "```yaml\nguards:\n  rules:\n    - name: no-load-balancers\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("report lacks %q:\n%s", want, md)
		}
	}
	r.With = []sample{smp(2200, 3300), smp(2200, 3300), smp(2200, 3300)}
	if md := r.markdown(); !strings.Contains(md, "**FAIL**: with rules 1.100×") {
		t.Errorf("report over the target:\n%s", md)
	}
	r.WithPlan.Verdicts = nil
	if md := r.markdown(); !strings.Contains(md, "**NOT MEASURED**") || !strings.Contains(md, "got the verdicts none where the rules give") {
		t.Errorf("report without verdicts:\n%s", md)
	}
	if err := r.checkVerdicts(); err == nil || !strings.Contains(err.Error(), "the rules were not all evaluated") {
		t.Errorf("checkVerdicts without verdicts: %v", err)
	}
}
