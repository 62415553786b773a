package config

import (
	"strings"
	"testing"
)

// health: is read and compiled with kubeplan.yaml: a rule replaces the
// built-in of its kind, and a typo in an expression is an error at the
// line and column where it is written.
func TestParseHealth(t *testing.T) {
	c, err := Parse("kubeplan.yaml", []byte(`health:
  - apiVersion: cert-manager.io/v1
    kind: Certificate
    current: status.conditions.exists(e, e.type == 'Ready' && e.status == 'True')
`))
	if err != nil {
		t.Fatal(err)
	}
	if len(c.HealthRules) != 1 || c.Health == nil {
		t.Fatalf("rules %+v, set %v", c.HealthRules, c.Health)
	}
	obj := map[string]any{"apiVersion": "cert-manager.io/v1", "kind": "Certificate"}
	if r := c.Health.For(obj); r == nil || r.Rule.BuiltinName() != "" {
		t.Errorf("the rule of kubeplan.yaml must replace the built-in: %+v", r)
	}

	_, err = Parse("kubeplan.yaml", []byte(`kubeVersion: "1.33"
health:
  - apiVersion: cert-manager.io/v1
    kind: Certificate
    current: stauts.conditions.size() > 0
`))
	if err == nil || !strings.HasPrefix(err.Error(), "kubeplan.yaml:5:14: health rule Certificate.cert-manager.io: current: undeclared reference to 'stauts'") {
		t.Errorf("got %v", err)
	}
	_, err = Parse("kubeplan.yaml", []byte("health: {current: x}\n"))
	if err == nil || !strings.HasPrefix(err.Error(), "kubeplan.yaml:1:9: health: want a list of rules") {
		t.Errorf("got %v", err)
	}
}

// An error in a block (|) is at its line and column in the file, the
// block indented two columns past its key as YAML is usually written.
func TestParseHealthBlock(t *testing.T) {
	_, err := Parse("kubeplan.yaml", []byte(`health:
  - apiVersion: example.org/v1
    kind: Database
    current: |
      has(status.phase) &&
        status.phse == 'Ready' && stauts.x
`))
	if err == nil || !strings.HasPrefix(err.Error(), "kubeplan.yaml:6:35: health rule Database.example.org: current: undeclared reference to 'stauts'") {
		t.Errorf("got %v", err)
	}
}
