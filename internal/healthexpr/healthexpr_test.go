package healthexpr

import (
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
	sigsyaml "sigs.k8s.io/yaml"
)

// parseConfig reads text as kubeplan.yaml's health: list.
func parseConfig(t *testing.T, text string) ([]Rule, error) {
	t.Helper()
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(text), &doc); err != nil {
		t.Fatal(err)
	}
	top := doc.Content[0]
	return Parse("kubeplan.yaml", []byte(text), top.Content[1], "health")
}

func object(t *testing.T, text string) map[string]any {
	t.Helper()
	var m map[string]any
	if err := sigsyaml.Unmarshal([]byte(text), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

const certRule = `health:
  - apiVersion: cert-manager.io/v1
    kind: Certificate
    current: status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')
    failed: status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'False')
`

func cert(ready string, extra string) string {
	return `apiVersion: cert-manager.io/v1
kind: Certificate
metadata: {name: web, namespace: shop, generation: 2}
status:
  observedGeneration: 2` + extra + `
  conditions:
  - {type: Ready, status: "` + ready + `", reason: Pending, message: waiting for the order}
`
}

// A Flux rule works as Flux evaluates it: inProgress, failed, current in
// that order; none true is InProgress; a failed one names the rule.
func TestEvaluateFluxOrder(t *testing.T) {
	rules, err := parseConfig(t, certRule)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	c := s.For(object(t, cert("True", "")))
	if c == nil || c.Rule.BuiltinName() != "" {
		t.Fatalf("the user's rule must replace the built-in: %+v", c)
	}
	for _, tc := range []struct{ obj, want, msg string }{
		{cert("True", ""), Current, ""},
		{cert("False", ""), Failed, "failed by health rule Certificate.cert-manager.io (kubeplan.yaml:2:5): Ready=False Pending: waiting for the order"},
		{cert("Unknown", ""), InProgress, "not current yet"},
		// the generation not observed: InProgress whatever the expressions say
		{strings.Replace(cert("True", ""), "observedGeneration: 2", "observedGeneration: 1", 1), InProgress, "generation 2 not observed yet"},
		// a field the object lacks: InProgress with the error, never Failed
		{"apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: web}\nstatus: {}\n", InProgress, "failed: no such key: conditions"},
		{"apiVersion: cert-manager.io/v1\nkind: Certificate\nmetadata: {name: web}\n", InProgress, "no such attribute"},
	} {
		out := c.Evaluate(object(t, tc.obj))
		if out.Status != tc.want || !strings.Contains(out.Message, tc.msg) {
			t.Errorf("%s: got %s %q, want %s with %q", tc.obj, out.Status, out.Message, tc.want, tc.msg)
		}
	}
	// inProgress comes first: with both true, the object is in progress
	rules[0].InProgress = "true"
	s, err = Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	if out := s.For(object(t, cert("True", ""))).Evaluate(object(t, cert("True", ""))); out.Status != InProgress || out.Key != "inProgress" {
		t.Errorf("inProgress first: got %+v", out)
	}
}

// Errors are at the file:line:col of the expression, the column inside a
// one-line expression and inside a block.
func TestCompileErrorsAtExpression(t *testing.T) {
	for _, tc := range []struct{ text, want string }{
		{"health:\n  - apiVersion: cert-manager.io/v1\n    kind: Certificate\n    current: stauts.conditions.size() > 0\n",
			"kubeplan.yaml:4:14: health rule Certificate.cert-manager.io: current: undeclared reference to 'stauts'"},
		{"health:\n  - apiVersion: cert-manager.io/v1\n    kind: Certificate\n    current: \"status.x == 1 &&\"\n",
			"kubeplan.yaml:4:31: health rule Certificate.cert-manager.io: current: Syntax error"},
		{"health:\n  - apiVersion: cert-manager.io/v1\n    kind: Certificate\n    current: |\n      has(status.x) &&\n        status.x + 1\n",
			"kubeplan.yaml:6:18: health rule Certificate.cert-manager.io: current: expected type 'bool' but found 'int'"},
		{"health:\n  - apiVersion: cert-manager.io/v1\n    kind: Certificate\n    current: kind\n",
			"kubeplan.yaml:4:14: health rule Certificate.cert-manager.io: current yields string, want bool"},
		{"health:\n  - apiVersion: cert-manager.io/v1\n    kind: Certificate\n    failed: 'true'\n",
			"kubeplan.yaml:2:5: health[0]: current is missing"},
		{"health:\n  - apiVersion: a.io/v1\n    kind: A\n    current: 'true'\n    ready: 'true'\n",
			"kubeplan.yaml:5:5: unknown key \"ready\" in health[0]"},
		{"health:\n  - apiVersion: a.io/v1\n    kind: A\n    current: 'true'\n  - apiVersion: a.io/v2\n    kind: A\n    current: 'false'\n",
			"kubeplan.yaml:5:5: health rule A.a.io: a rule for A.a.io is already at kubeplan.yaml:2:5"},
	} {
		rules, err := parseConfig(t, tc.text)
		if err == nil {
			_, err = Compile(rules)
		}
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s\ngot  %v\nwant %s", tc.text, err, tc.want)
		}
	}
}

// A hostile rule is stopped by the cost limit: the object stays
// InProgress with the error.
func TestEvaluateCostLimit(t *testing.T) {
	rules, err := parseConfig(t, "health:\n  - apiVersion: a.io/v1\n    kind: A\n    current: \"[1,2,3,4,5,6,7,8,9,10].all(a, [1,2,3,4,5,6,7,8,9,10].all(b, [1,2,3,4,5,6,7,8,9,10].all(c, [1,2,3,4,5,6,7,8,9,10].all(d, [1,2,3,4,5,6,7,8,9,10].all(e, a+b+c+d+e > 0)))))\"\n")
	if err != nil {
		t.Fatal(err)
	}
	s, err := Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	obj := object(t, "apiVersion: a.io/v1\nkind: A\nmetadata: {name: x}\n")
	out := s.For(obj).Evaluate(obj)
	if out.Status != InProgress || out.Err == nil || !strings.Contains(out.Err.Error(), "cost") {
		t.Errorf("got %+v", out)
	}
}
