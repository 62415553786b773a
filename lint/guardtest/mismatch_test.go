package guardtest

import (
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// repo writes files into a new git repository and returns its path.
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	dir = filepath.Join(dir, "repo")
	if out, err := exec.Command("git", "init", "-q", dir).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	for name, text := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const rulesFile = `- name: no-statefulset-replace
  expression: change.action == 'replace' && change.kind == 'StatefulSet'
  outcome: require-approval
  message: replacing a StatefulSet recreates its pods
`

func TestMismatches(t *testing.T) {
	dir := repo(t, map[string]string{
		"guards/workloads.yaml": rulesFile,
		"t/kubeplan-guard-test.yaml": `apiVersion: kubeplan.dev/v1alpha1
kind: GuardTest
rules: [../guards]
cases:
  - name: wrong outcome
    changes:
      - {action: replace, group: apps, kind: StatefulSet, namespace: db, name: pg}
    verdicts:
      - {rule: no-statefulset-replace, outcome: deny, object: statefulset.apps/pg}
  - name: wrong message, and a verdict not expected
    changes:
      - {action: replace, group: apps, kind: StatefulSet, namespace: db, name: pg}
      - {action: prune, kind: PersistentVolumeClaim, namespace: db, name: data}
    verdicts:
      - {rule: no-statefulset-replace, outcome: require-approval, object: statefulset.apps/pg, message: nope}
  - name: a verdict that does not come
    changes:
      - {action: update, group: apps, kind: StatefulSet, namespace: db, name: pg}
    verdicts:
      - {rule: no-statefulset-replace, outcome: require-approval, object: statefulset.apps/pg}
`,
	})
	rep, err := Run(filepath.Join(dir, "t"))
	if err != nil {
		t.Fatal(err)
	}
	f := filepath.Join(dir, "t", TestFileName)
	want := []string{
		"FAIL " + f + ":9: no-statefulset-replace statefulset.apps/pg: want deny, got require-approval: replacing a StatefulSet recreates its pods",
		"FAIL " + f + ":15: no-statefulset-replace statefulset.apps/pg: want message \"nope\", got \"replacing a StatefulSet recreates its pods\"",
		"FAIL " + f + ":10: protect-pvc persistentvolumeclaim/data: unexpected verdict require-approval: prunes persistentvolumeclaim/data in namespace db: the volume's data may be deleted with it",
		"FAIL " + f + ":20: no-statefulset-replace statefulset.apps/pg: want require-approval, got no verdict",
	}
	if got := rows(rep); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if rep.Failed != 4 || rep.Passed != 0 || rep.OK() {
		t.Errorf("passed %d failed %d", rep.Passed, rep.Failed)
	}
}

func TestProblems(t *testing.T) {
	head := "apiVersion: kubeplan.dev/v1alpha1\nkind: GuardTest\n"
	for _, tc := range []struct {
		name  string
		files map[string]string
		want  string
	}{
		{"wrong kind", map[string]string{"t/kubeplan-guard-test.yaml": "apiVersion: kubeplan.dev/v1alpha1\nkind: PolicyTest\nrules: [x.yaml]\n"},
			`t/kubeplan-guard-test.yaml:1:1: want apiVersion kubeplan.dev/v1alpha1 and kind GuardTest, got "kubeplan.dev/v1alpha1" "PolicyTest"`},
		{"no rules", map[string]string{"t/kubeplan-guard-test.yaml": head + "cases: []\n"},
			`t/kubeplan-guard-test.yaml:1:1: name the rules to test: rules: (rule files) or config: (a kubeplan.yaml)`},
		{"bad action", map[string]string{"t/kubeplan-guard-test.yaml": head + "rules: [r.yaml]\ncases:\n  - name: c\n    changes:\n      - {action: delete, kind: Pod, name: p}\n"},
			`t/kubeplan-guard-test.yaml:7:9: case "c": changes[0]: action "delete": want one of create, update, replace, prune, adopt, release`},
		{"bad outcome", map[string]string{"t/kubeplan-guard-test.yaml": head + "rules: [r.yaml]\ncases:\n  - name: c\n    verdicts:\n      - {rule: x, outcome: fail}\n"},
			`t/kubeplan-guard-test.yaml:7:9: case "c": verdicts[0]: outcome "fail": want deny, require-approval or warn`},
		{"rule does not compile, at its position in its file", map[string]string{
			"guards/r.yaml":              "- name: lb\n  expression: change.after.spec.tpye == 'LoadBalancer' && change.knid == 'Service'\n  outcome: warn\n",
			"t/kubeplan-guard-test.yaml": head + "rules: [../guards/r.yaml]\ncases: []\n"},
			`guards/r.yaml:2:65: guard rule lb: expression: undefined field 'knid': fix the expression (docs/guards.md lists the variables and their fields)`},
		{"kubeplan.yaml's guards", map[string]string{
			"kubeplan.yaml":              "projects: []\nguards:\n  builtin: {protect-pvs: off}\n",
			"t/kubeplan-guard-test.yaml": head + "config: ../kubeplan.yaml\ncases: []\n"},
			`kubeplan.yaml:3:13: guards.builtin: no built-in rule "protect-pvs": want one of protect-pvc, protect-namespace, protect-crd, mass-prune`},
		{"a missing rule file kubeplan.yaml names", map[string]string{
			"kubeplan.yaml":              "guards:\n  files: [guards/]\n",
			"t/kubeplan-guard-test.yaml": head + "config: ../kubeplan.yaml\ncases: []\n"},
			`kubeplan.yaml:2:10: reading `},
		{"a rule file kubeplan.yaml names", map[string]string{
			"kubeplan.yaml":              "guards:\n  files: [guards/]\n",
			"guards/a.yaml":              "rules:\n  - {name: a, expression: 'true', outcome: maybe}\n",
			"t/kubeplan-guard-test.yaml": head + "config: ../kubeplan.yaml\ncases: []\n"},
			`guards/a.yaml:2:44: guard rule a: outcome "maybe": want deny, require-approval or warn`},
		// the line the YAML parser names (it counts this error from the line before the flow)
		{"bad YAML", map[string]string{"t/kubeplan-guard-test.yaml": head + "rules: [x.yaml]\ncases:\n  - name: c\n    changes: [{paths: [a[0]]}]\n"},
			`t/kubeplan-guard-test.yaml:5:1: invalid YAML: did not find expected ',' or ']'`},
		{"a key misspelt", map[string]string{"t/kubeplan-guard-test.yaml": head + "rules: [r.yaml]\ncases:\n  - name: c\n    chnages: []\n"},
			`t/kubeplan-guard-test.yaml:6:1: unknown key "chnages" (see docs/guards.md, "Testing rules")`},
		{"a missing rule file", map[string]string{"t/kubeplan-guard-test.yaml": head + "rules: [nope.yaml]\ncases: []\n"},
			`t/kubeplan-guard-test.yaml:3:8: reading `},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := repo(t, tc.files)
			rep, err := Run(filepath.Join(dir, "t"))
			if err != nil {
				t.Fatal(err)
			}
			got := strings.Join(rows(rep), "\n")
			want := "error " + filepath.Join(dir, tc.want)
			if !strings.HasPrefix(got, want) || rep.OK() {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// A test cannot make kubeplan read a file outside the checkout, by a path
// or by a link.
func TestConfined(t *testing.T) {
	dir := repo(t, map[string]string{
		"t/kubeplan-guard-test.yaml": "apiVersion: kubeplan.dev/v1alpha1\nkind: GuardTest\nrules: [../../outside.yaml]\ncases: []\n",
		"l/kubeplan-guard-test.yaml": "apiVersion: kubeplan.dev/v1alpha1\nkind: GuardTest\nrules: [link.yaml]\ncases: []\n",
	})
	canary := "- {name: canary-4f1e, expression: 'true', outcome: deny}\n"
	if err := os.WriteFile(filepath.Join(filepath.Dir(dir), "outside.yaml"), []byte(canary), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(filepath.Join(filepath.Dir(dir), "outside.yaml"), filepath.Join(dir, "l", "link.yaml")); err != nil {
		t.Fatal(err)
	}
	for _, sub := range []string{"t", "l"} {
		rep, err := Run(filepath.Join(dir, sub))
		if err != nil {
			t.Fatal(err)
		}
		got := strings.Join(rows(rep), "\n")
		if !strings.Contains(got, "outside "+dir) || strings.Contains(got, "canary-4f1e") || rep.OK() {
			t.Errorf("%s: %s", sub, got)
		}
	}
}

func TestRunBoth(t *testing.T) {
	// No test at all is an error.
	empty := repo(t, map[string]string{"README.md": "x"})
	if _, err := Run(empty); err == nil || !strings.Contains(err.Error(), "no kubeplan-test.yaml or kubeplan-guard-test.yaml under") {
		t.Errorf("no tests: %v", err)
	}
	// An admission test and a guard test run in one report.
	dir := repo(t, map[string]string{
		"policies/kubeplan-test.yaml": "apiVersion: kubeplan.dev/v1alpha1\nkind: PolicyTest\npolicies: []\nresources: [cm.yaml]\nresults: []\n",
		"policies/cm.yaml":            "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: a, namespace: shop}\n",
		"guards/kubeplan-guard-test.yaml": "apiVersion: kubeplan.dev/v1alpha1\nkind: GuardTest\nrules: [r.yaml]\ncases:\n" +
			"  - name: c\n    changes: [{action: prune, kind: Namespace, name: old}]\n    verdicts: [{rule: protect-namespace, outcome: require-approval, object: namespace/old}]\n",
		"guards/r.yaml": "[]\n",
	})
	rep, err := Run(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Files) != 2 || rep.Passed != 1 || !rep.OK() {
		t.Errorf("files %v passed %d: %v", rep.Files, rep.Passed, rows(rep))
	}
	// A guard test named on its own, by its usual name or another.
	rep, err = Run(filepath.Join(dir, "guards", TestFileName))
	if err != nil || len(rep.Files) != 1 || rep.Passed != 1 {
		t.Errorf("one file: %v %+v", err, rep)
	}
	if err := os.Rename(filepath.Join(dir, "guards", TestFileName), filepath.Join(dir, "guards", "namespaces-test.yaml")); err != nil {
		t.Fatal(err)
	}
	rep, err = Run(filepath.Join(dir, "guards", "namespaces-test.yaml"))
	if err != nil || len(rep.Files) != 1 || rep.Passed != 1 || !rep.OK() {
		t.Errorf("one file of another name: %v %+v", err, rep)
	}
}

// What a case leaves out of its plan is computed from its changes.
func TestInputs(t *testing.T) {
	half := 0.5
	c := Case{
		Plan: TestPlan{Project: "shop", Cluster: "prod", Members: 4, Counts: map[string]int64{"update": 7}},
		Changes: []TestChange{
			{Action: "prune", Kind: "ConfigMap", Namespace: "shop", Name: "a"},
			{Action: "prune", Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "b"},
			{Action: "update", Group: "apps", Kind: "Deployment", Namespace: "shop", Name: "c", Object: "deployment.apps/c", Project: "other"},
		},
	}
	p, changes := inputs(c)
	wantCounts := map[string]int64{"create": 0, "update": 7, "replace": 0, "prune": 2, "adopt": 0, "release": 0}
	if !reflect.DeepEqual(p.Counts, wantCounts) {
		t.Errorf("counts %v, want %v", p.Counts, wantCounts)
	}
	wantKinds := map[string]map[string]int64{"ConfigMap": {"prune": 1}, "Deployment": {"prune": 1, "update": 1}}
	if !reflect.DeepEqual(p.Kinds, wantKinds) {
		t.Errorf("kinds %v, want %v", p.Kinds, wantKinds)
	}
	if p.PrunedFraction != 0.5 {
		t.Errorf("prunedFraction %v", p.PrunedFraction)
	}
	if changes[0].Object != "configmap/a" || changes[0].Version != "v1" || changes[0].Project != "shop" || changes[0].Cluster != "prod" {
		t.Errorf("change 0: %+v", changes[0])
	}
	if changes[1].Object != "deployment.apps/b" || changes[1].Version != "" || changes[2].Project != "other" {
		t.Errorf("changes: %+v", changes)
	}
	// A fraction given is kept.
	c.Plan.PrunedFraction = &half
	c.Plan.Members = 100
	if p, _ := inputs(c); p.PrunedFraction != 0.5 {
		t.Errorf("given prunedFraction %v", p.PrunedFraction)
	}
}
