package guard

import (
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"
)

// A platform team's rules over a realistic plan of the shop namespace.
const platformGuards = `guards:
  builtin: {mass-prune: warn}
  rules:
    - name: no-statefulset-replace
      expression: change.action == 'replace' && change.kind == 'StatefulSet'
      outcome: require-approval
      messageExpression: "'replaces statefulset/' + change.name + ': its pods are recreated'"
    - name: no-critical-prune
      expression: >-
        change.action == 'prune' &&
        change.before.?metadata.?labels['data-class'].orValue('') == 'critical'
      outcome: deny
      message: objects labelled data-class critical are never pruned by a pipeline
    - name: replica-jump
      expression: change.action == 'update' && 'spec.replicas' in change.paths
      outcome: warn
    - name: prod-cluster-prunes
      scope: plan
      expression: plan.cluster == 'prod' && plan.counts['prune'] > 0
      outcome: warn
      message: this plan prunes on prod
`

func TestEvaluate(t *testing.T) {
	s := mustCompile(t, platformGuards)
	p := shopPlan()
	changes := []Change{deployUpdate(), stsReplace(), pvcPrune(), nsPrune(), crdReplace(),
		{Action: "create", Version: "v1", Kind: "ConfigMap", Namespace: "shop", Name: "settings", Object: "configmap/settings"}}
	vs, err := s.Evaluate(p, changes)
	if err != nil {
		t.Fatal(err)
	}
	type row struct{ rule, outcome, object, message string }
	var got []row
	for _, v := range vs {
		got = append(got, row{v.Rule, string(v.Outcome), v.Object, v.Message})
	}
	want := []row{
		{"no-critical-prune", "deny", "persistentvolumeclaim/data", "objects labelled data-class critical are never pruned by a pipeline"},
		{"no-statefulset-replace", "require-approval", "statefulset.apps/db", "replaces statefulset/db: its pods are recreated"},
		{"protect-pvc", "require-approval", "persistentvolumeclaim/data", "prunes persistentvolumeclaim/data in namespace shop: the volume's data may be deleted with it"},
		{"protect-namespace", "require-approval", "namespace/legacy", "prunes namespace/legacy: every object in the namespace is deleted with it"},
		{"protect-crd", "require-approval", "customresourcedefinition.apiextensions.k8s.io/widgets.example.com",
			"replaces customresourcedefinition.apiextensions.k8s.io/widgets.example.com: every custom resource of that kind is deleted with it"},
		{"prod-cluster-prunes", "warn", "", "this plan prunes on prod"},
		{"replica-jump", "warn", "deployment.apps/web", "update of deployment.apps/web in namespace shop matches rule replica-jump"},
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("verdicts:\n%v\nwant\n%v", got, want)
	}
	// The rest of a verdict comes from the change and the rule.
	pvc := vs[2]
	if pvc.Namespace != "shop" || pvc.Action != "prune" || !pvc.Builtin || pvc.At != "" || !reflect.DeepEqual(pvc.Files, []string{"apps/shop"}) {
		t.Errorf("protect-pvc verdict: %+v", pvc)
	}
	if v := vs[0]; v.Builtin || v.At != "kubeplan.yaml:8:7" {
		t.Errorf("no-critical-prune verdict: %+v", v)
	}
	if v := vs[5]; !reflect.DeepEqual(v.Files, p.Files) || v.At != "kubeplan.yaml:17:7" || v.Object != "" {
		t.Errorf("plan verdict: %+v", v)
	}
}

func TestMassPrune(t *testing.T) {
	for _, tc := range []struct {
		name     string
		members  int64
		prunes   int64
		want     string
		guards   string
		outcome  Outcome
		fraction float64
	}{
		{"more than half", 10, 6, "prunes 6 of the 10 members of the set (60%)", "guards: {}\n", RequireApproval, 0.6},
		{"half", 10, 5, "", "guards: {}\n", "", 0.5},
		{"four of seven, rounded", 7, 4, "prunes 4 of the 7 members of the set (57%)", "guards: {}\n", RequireApproval, 4.0 / 7},
		{"29 of 50", 50, 29, "prunes 29 of the 50 members of the set (58%)", "guards: {}\n", RequireApproval, 0.58},
		{"a new set", 0, 0, "", "guards: {}\n", "", 0},
		{"all, as warn", 3, 3, "prunes 3 of the 3 members of the set (100%)", "guards: {builtin: {mass-prune: warn}}\n", Warn, 1},
		{"all, off", 3, 3, "", "guards: {builtin: {mass-prune: off}}\n", "", 1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustCompile(t, tc.guards)
			p := Plan{Members: tc.members, PrunedFraction: tc.fraction, Counts: map[string]int64{"prune": tc.prunes}}
			vs, err := s.Evaluate(p, nil)
			if err != nil {
				t.Fatal(err)
			}
			if tc.want == "" {
				if len(vs) != 0 {
					t.Errorf("verdicts %+v", vs)
				}
				return
			}
			if len(vs) != 1 || vs[0].Rule != MassPrune || vs[0].Message != tc.want || vs[0].Outcome != tc.outcome {
				t.Errorf("verdicts %+v", vs)
			}
		})
	}
}

// The built-ins judge only what they name: the core group's PVCs and
// Namespaces, and only prune and replace.
func TestBuiltinsScope(t *testing.T) {
	s := mustCompile(t, "guards: {}\n")
	quiet := []Change{
		{Action: "update", Kind: "PersistentVolumeClaim", Name: "data", Namespace: "shop"},
		{Action: "create", Kind: "Namespace", Name: "new"},
		{Action: "prune", Group: "example.com", Kind: "PersistentVolumeClaim", Name: "fake"},
		{Action: "adopt", Group: "apiextensions.k8s.io", Kind: "CustomResourceDefinition", Name: "x.example.com"},
		{Action: "release", Kind: "Namespace", Name: "handed-over"},
	}
	vs, err := s.Evaluate(Plan{}, quiet)
	if err != nil || len(vs) != 0 {
		t.Errorf("verdicts %+v, %v", vs, err)
	}
}

// No rule and no message sees a Secret's values, even if a caller fills
// them in.
func TestSecretInvisible(t *testing.T) {
	s := mustCompile(t, `guards:
  rules:
    - name: leak
      expression: change.kind == 'Secret'
      outcome: warn
      messageExpression: "'data: ' + string(change.after.?data.?password.orValue('none')) + ' ' + string(size(change.before))"
`)
	secret := Change{Action: "update", Kind: "Secret", Namespace: "shop", Name: "db", Object: "secret/db",
		Before: map[string]any{"data": map[string]any{"password": "aHVudGVyMg=="}},
		After:  map[string]any{"data": map[string]any{"password": "c2VjcmV0"}}}
	vs, err := s.Evaluate(Plan{}, []Change{secret})
	if err != nil || len(vs) != 1 {
		t.Fatalf("%+v %v", vs, err)
	}
	if vs[0].Message != "data: none 0" {
		t.Errorf("message %q shows a Secret's data", vs[0].Message)
	}
}

func TestEvaluateErrors(t *testing.T) {
	s := mustCompile(t, `guards:
  rules:
    - name: lb
      expression: change.after.spec.type == 'LoadBalancer'
      outcome: warn
`)
	_, err := s.Evaluate(Plan{}, []Change{pvcPrune()})
	want := "kubeplan.yaml:3:7: guard rule lb on persistentvolumeclaim/data in namespace shop: no such key: spec: read a field not every object has with ?. and orValue, as in change.after.?spec.?type.orValue('')"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	// A dyn expression that is not a bool at run time.
	s = mustCompile(t, "guards:\n  rules:\n    - {name: d, expression: change.after.spec.replicas, outcome: warn}\n")
	_, err = s.Evaluate(Plan{}, []Change{deployUpdate()})
	want = "kubeplan.yaml:3:7: guard rule d on deployment.apps/web in namespace shop: expression yields int, want bool"
	if err == nil || err.Error() != want {
		t.Errorf("got  %v\nwant %s", err, want)
	}
	// A messageExpression that fails falls back to the message.
	s = mustCompile(t, "guards:\n  builtin: {protect-namespace: off}\n  rules:\n    - {name: m, expression: 'true', outcome: warn, message: fixed, messageExpression: \"change.after.metadata.name\"}\n")
	vs, err := s.Evaluate(Plan{}, []Change{nsPrune()})
	if err != nil || len(vs) != 1 || vs[0].Message != "fixed" {
		t.Errorf("%+v %v", vs, err)
	}
}

// A hostile rule is stopped by the cost limit of one evaluation, many
// moderately expensive ones by the plan's budget, and slow ones by the
// time limit.
func TestCostLimit(t *testing.T) {
	s := mustCompile(t, `guards:
  rules:
    - name: burn
      expression: lists.range(5000).all(i, lists.range(5000).all(j, i + j >= 0))
      outcome: warn
`)
	_, err := s.Evaluate(Plan{}, []Change{deployUpdate()})
	if err == nil || !strings.Contains(err.Error(), "guard rule burn on deployment.apps/web in namespace shop: operation cancelled: actual cost limit exceeded (limit 20000 per evaluation): make the rule cheaper") {
		t.Errorf("got %v", err)
	}
	// lists.range cannot allocate past its bound before its cost counts.
	s = mustCompile(t, "guards:\n  rules:\n    - {name: big, expression: 'lists.range(100000000).size() > 0', outcome: warn}\n")
	if _, err := s.Evaluate(Plan{}, []Change{deployUpdate()}); err == nil || !strings.Contains(err.Error(), "exceeds maximum allowed") {
		t.Errorf("got %v", err)
	}
	// Each evaluation is under the limit; together they are not.
	s = mustCompile(t, `guards:
  rules:
    - name: wide
      expression: lists.range(5000).size() == 0
      outcome: warn
`)
	changes := make([]Change, 3000)
	for i := range changes {
		changes[i] = deployUpdate()
	}
	_, err = s.Evaluate(Plan{}, changes)
	if err == nil || !strings.Contains(err.Error(), "the rules cost more than 10000000 to evaluate over this plan") {
		t.Errorf("got %v", err)
	}
	if _, err := s.Evaluate(Plan{}, changes[:1000]); err != nil {
		t.Errorf("a thousand changes: %v", err)
	}
}

func TestTimeLimit(t *testing.T) {
	defer func(d time.Duration) { EvalTimeout = d }(EvalTimeout)
	EvalTimeout = time.Millisecond
	s := mustCompile(t, `guards:
  rules:
    - name: slow
      expression: lists.range(3000).all(i, i >= 0)
      outcome: warn
`)
	changes := make([]Change, 500)
	for i := range changes {
		changes[i] = deployUpdate()
	}
	_, err := s.Evaluate(Plan{}, changes)
	if err == nil || !strings.Contains(err.Error(), "guard rule slow on deployment.apps/web in namespace shop: the rules took longer than 1ms over this plan") {
		t.Errorf("got %v", err)
	}
}

// One Set serves the projects of a run at once.
func TestEvaluateConcurrent(t *testing.T) {
	s := mustCompile(t, platformGuards)
	want, err := s.Evaluate(shopPlan(), []Change{stsReplace(), pvcPrune()})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 4)
	for i := 0; i < 4; i++ {
		go func() {
			for j := 0; j < 50; j++ {
				got, err := s.Evaluate(shopPlan(), []Change{stsReplace(), pvcPrune()})
				if err == nil && !reflect.DeepEqual(got, want) {
					err = fmt.Errorf("verdicts differ: %+v", got)
				}
				if err != nil {
					errs <- err
					return
				}
			}
			errs <- nil
		}()
	}
	for i := 0; i < 4; i++ {
		if err := <-errs; err != nil {
			t.Error(err)
		}
	}
}

// Plan rules read counts and kinds.
func TestPlanFields(t *testing.T) {
	s := mustCompile(t, `guards:
  builtin: {mass-prune: off}
  rules:
    - name: many-deployments
      scope: plan
      expression: plan.kinds['Deployment']['update'] >= 2 && plan.counts['create'] == 0 && plan.applyset != ''
      outcome: warn
      messageExpression: "string(plan.kinds['Deployment']['update']) + ' Deployments roll out in ' + plan.project + ' on ' + plan.cluster"
`)
	p := shopPlan()
	p.Kinds = map[string]map[string]int64{"Deployment": {"update": 3}}
	vs, err := s.Evaluate(p, nil)
	if err != nil || len(vs) != 1 || vs[0].Message != "3 Deployments roll out in shop on prod" {
		t.Errorf("%+v %v", vs, err)
	}
	p.Kinds["Deployment"]["update"] = 1
	if vs, err := s.Evaluate(p, nil); err != nil || len(vs) != 0 {
		t.Errorf("%+v %v", vs, err)
	}
}

// change as a whole value (in a list, compared) still reads its fields.
func TestChangeAsValue(t *testing.T) {
	s := mustCompile(t, `guards:
  rules:
    - name: whole
      expression: "[change].exists(c, c.kind == 'Deployment' && c.paths.size() == 2) && change == change"
      outcome: warn
`)
	vs, err := s.Evaluate(Plan{}, []Change{deployUpdate(), stsReplace()})
	if err != nil || len(vs) != 1 || vs[0].Object != "deployment.apps/web" {
		t.Errorf("%+v %v", vs, err)
	}
}
