package config

import (
	"strings"
	"testing"
)

// rollOnConfigChange: in defaults and in an entry is read with its
// position; an entry's false is kept apart from not set.
func TestParseRollOnConfigChange(t *testing.T) {
	c, err := Parse("kubeplan.yaml", []byte(`defaults:
  rollOnConfigChange: true
projects:
  - path: shop
    rollOnConfigChange: false
  - path: web
`))
	if err != nil {
		t.Fatal(err)
	}
	if r := c.Defaults.RollOnConfigChange; r == nil || !*r || c.At(c.Defaults.Pos["rollOnConfigChange"]) != "kubeplan.yaml:2:23" {
		t.Errorf("defaults: %v at %v", r, c.Defaults.Pos)
	}
	if r := c.Projects[0].RollOnConfigChange; r == nil || *r || c.At(c.Projects[0].Pos["rollOnConfigChange"]) != "kubeplan.yaml:5:25" {
		t.Errorf("shop: %v at %v", r, c.Projects[0].Pos)
	}
	if r := c.Projects[1].RollOnConfigChange; r != nil {
		t.Errorf("web: %v, want nil (not set)", *r)
	}
}

// A value that is not a boolean is an error at it, in either place.
func TestParseRollOnConfigChangeErrors(t *testing.T) {
	for _, tc := range []struct{ doc, want string }{
		{"defaults:\n  rollOnConfigChange: yes please\n", "kubeplan.yaml:2:23: defaults.rollOnConfigChange: want true or false"},
		{"projects:\n  - path: shop\n    rollOnConfigChange: [true]\n", "kubeplan.yaml:3:25: projects[0].rollOnConfigChange: want true or false"},
	} {
		_, err := Parse("kubeplan.yaml", []byte(tc.doc))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want %q", tc.doc, err, tc.want)
		}
	}
}
