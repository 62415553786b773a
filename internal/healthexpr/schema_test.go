package healthexpr

import (
	"strings"
	"testing"
)

const certCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: certificates.cert-manager.io}
spec:
  group: cert-manager.io
  names: {kind: Certificate, plural: certificates}
  versions:
  - name: v1
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            properties:
              secretName: {type: string}
              labels: {type: object, additionalProperties: {type: string}}
              extra: {type: object, x-kubernetes-preserve-unknown-fields: true}
          status:
            type: object
            properties:
              notAfter: {type: string}
              conditions:
                type: array
                items:
                  type: object
                  properties:
                    type: {type: string}
                    status: {type: string}
                    reason: {type: string}
`

// The fields a rule selects are checked against its kind's CRD: a typo
// is an error at the column of the field, naming it and what the schema
// has there; fields through macros, optional fields and maps are
// followed.
func TestCheckCRDs(t *testing.T) {
	crd := object(t, certCRD)
	check := func(expr string) error {
		t.Helper()
		rules, err := parseConfig(t, "health:\n  - apiVersion: cert-manager.io/v1\n    kind: Certificate\n    current: \""+expr+"\"\n")
		if err != nil {
			t.Fatal(err)
		}
		s, err := Compile(rules)
		if err != nil {
			t.Fatal(err)
		}
		return s.CheckCRDs([]map[string]any{crd})
	}
	for _, ok := range []string{
		"status.conditions.filter(e, e.type == 'Ready').all(e, e.status == 'True')",
		"has(status.notAfter) && status.?conditions.orValue([]).exists(c, c.reason == 'x')",
		"spec.labels['team'] == 'a' && spec.extra.anything.goes && metadata.whatever == 1",
		"status.conditions[0].type == 'Ready'",
	} {
		if err := check(ok); err != nil {
			t.Errorf("%s: %v", ok, err)
		}
	}
	for _, tc := range []struct{ expr, want string }{
		{"status.condtions.size() > 0", "kubeplan.yaml:4:22: health rule Certificate.cert-manager.io: current: status.condtions: no such field in the CRD's schema; status has conditions, notAfter"},
		{"status.conditions.exists(c, c.typ == 'Ready')", "kubeplan.yaml:4:45: health rule Certificate.cert-manager.io: current: status.conditions[].typ: no such field in the CRD's schema; status.conditions[] has reason, status, type"},
		{"status.conditions.filter(e, e.type == 'Ready').all(e, e.stauts == 'True')", "status.conditions[].stauts: no such field"},
		{"status.?conditionz.orValue([]).size() == 0", "kubeplan.yaml:4:23: health rule Certificate.cert-manager.io: current: status.conditionz: no such field"},
		{"spec.secretNmae != ''", "kubeplan.yaml:4:20: health rule Certificate.cert-manager.io: current: spec.secretNmae: no such field in the CRD's schema; spec has extra, labels, secretName"},
	} {
		err := check(tc.expr)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s:\ngot  %v\nwant %s", tc.expr, err, tc.want)
		}
	}
	// A rule of another kind, and the built-ins, are not checked.
	rules, _ := parseConfig(t, "health:\n  - apiVersion: other.io/v1\n    kind: Certificate\n    current: status.nope\n")
	s, err := Compile(rules)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CheckCRDs([]map[string]any{crd}); err != nil {
		t.Errorf("another group: %v", err)
	}
}
