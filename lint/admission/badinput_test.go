package admission

import (
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
)

// Bad policies are problems at their file:line:col, never panics, and
// judge nothing.
func TestBadInput(t *testing.T) {
	const src = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: wrong-type
spec:
  validations: "not a list"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: unknown-param
spec:
  paramKind:
    apiVersion: example.com/v1
    kind: Limits
  matchConstraints:
    resourceRules:
      - {apiGroups: ["*"], apiVersions: ["*"], operations: ["CREATE"], resources: ["*"]}
  validations:
    - expression: "params.spec.max > 1"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: no-match
spec:
  validations:
    - expression: "true"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: no-policy-name
spec:
  validationActions: [Deny]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: orphan
spec:
  policyName: not-here
  validationActions: [Deny]
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: not-bool
spec:
  matchConstraints:
    resourceRules:
      - {apiGroups: ["*"], apiVersions: ["*"], operations: ["CREATE"], resources: ["*"]}
  validations:
    - expression: "object.metadata.name"
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: judged
  namespace: default
`
	objs, probs := manifest.Parse("bad.yaml", []byte(src))
	if len(probs) > 0 {
		t.Fatal(probs[0])
	}
	set, got := Load(objs, Options{})
	var lines []string
	for _, p := range got {
		lines = append(lines, fmt.Sprintf("%d:%d info=%v %s", p.Line, p.Col, p.Info, p.Message))
	}
	want := []string{
		"6:16 info=false ValidatingAdmissionPolicy wrong-type is refused by the API server: spec.validations: Invalid value: expected array, got string",
		"13:3 info=false ValidatingAdmissionPolicy unknown-param: paramKind example.com/v1 Limits is not a kind Kubernetes 1.37 serves nor one of a CustomResourceDefinition in the set, --crds or --policies",
		"26:1 info=false ValidatingAdmissionPolicy no-match is refused by the API server: spec.matchConstraints: Required value",
		"34:1 info=false ValidatingAdmissionPolicyBinding no-policy-name is refused by the API server: spec.policyName: Required value",
		"54:19 info=false ValidatingAdmissionPolicy not-bool: spec.validations[0].expression does not compile:",
		"42:15 info=true ValidatingAdmissionPolicyBinding orphan binds ValidatingAdmissionPolicy not-here, which is not among the policies",
	}
	if len(lines) != len(want) {
		t.Fatalf("got %d problems, want %d:\n%s", len(lines), len(want), strings.Join(lines, "\n"))
	}
	for i := range want {
		if !strings.HasPrefix(lines[i], want[i]) {
			t.Errorf("problem %d:\n got %s\nwant %s...", i, lines[i], want[i])
		}
	}
	// unknown-param compiles and judges: with no binding it says nothing.
	if vs := set.Check(find(objs, "ConfigMap", "judged")); len(vs) != 0 {
		t.Errorf("want no verdicts, got %+v", vs)
	}
}

// A binding whose paramRef finds nothing under parameterNotFoundAction
// Deny, and a runtime error under failurePolicy Ignore and Fail: the API
// server's answers.
func TestParamsAndFailurePolicy(t *testing.T) {
	const src = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: limits
spec:
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    resourceRules:
      - {apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"]}
  validations:
    - expression: "size(object.data) <= int(params.data.max)"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: limits-missing
spec:
  policyName: limits
  validationActions: [Deny]
  paramRef: {name: nope, parameterNotFoundAction: Deny}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: limits-selected
spec:
  policyName: limits
  validationActions: [Warn]
  paramRef:
    selector: {matchLabels: {kind: limit}}
    parameterNotFoundAction: Allow
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: ignore
spec:
  failurePolicy: Ignore
  matchConstraints:
    resourceRules:
      - {apiGroups: [""], apiVersions: ["v1"], operations: ["CREATE"], resources: ["configmaps"]}
  validations:
    - expression: "int(object.data.count) < 10"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: ignore
spec:
  policyName: ignore
  validationActions: [Deny]
---
apiVersion: v1
kind: ConfigMap
metadata: {name: small, namespace: team, labels: {kind: limit}}
data: {max: "1"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: big, namespace: team}
data: {a: "1", b: "2"}
---
apiVersion: v1
kind: ConfigMap
metadata: {name: nons}
data: {count: "1"}
`
	objs, probs := manifest.Parse("p.yaml", []byte(src))
	if len(probs) > 0 {
		t.Fatal(probs[0])
	}
	set, got := Load(objs, Options{})
	if len(got) != 0 {
		t.Fatalf("problems: %v", got[0])
	}
	var lines []string
	for _, v := range set.Check(find(objs, "ConfigMap", "big")) {
		lines = append(lines, v.Policy+"/"+v.Binding+" "+v.Result+" "+v.Action+": "+v.Message)
	}
	want := []string{
		"ignore/ignore skip Deny: error ignored (failurePolicy Ignore): expression 'int(object.data.count) < 10' resulted in error: no such key: count",
		"limits/limits-missing error Deny: failed to configure binding: no params found for policy binding with `Deny` parameterNotFoundAction",
		"limits/limits-selected fail Warn: failed expression: size(object.data) <= int(params.data.max)",
	}
	if strings.Join(lines, "\n") != strings.Join(want, "\n") {
		t.Errorf("got\n%s\nwant\n%s", strings.Join(lines, "\n"), strings.Join(want, "\n"))
	}
	// Without a namespace, a paramRef without one cannot be resolved.
	lines = nil
	for _, v := range set.Check(find(objs, "ConfigMap", "nons")) {
		lines = append(lines, v.Policy+"/"+v.Binding+" "+v.Result)
	}
	if got := strings.Join(lines, ","); got != "ignore/ignore pass,limits/limits-missing not-evaluable,limits/limits-selected not-evaluable" {
		t.Errorf("no namespace: %s", got)
	}
}
