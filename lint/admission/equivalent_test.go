package admission

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
)

// matchPolicy Equivalent matches another served version of the resource a
// rule names (the object is judged as that version: offline, only its
// apiVersion changes); Exact does not.
func TestMatchPolicyEquivalent(t *testing.T) {
	const src = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: widgets.example.com}
spec:
  group: example.com
  scope: Namespaced
  names: {plural: widgets, singular: widget, kind: Widget}
  versions:
    - {name: v1, served: true, storage: true, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
    - {name: v2, served: true, storage: false, schema: {openAPIV3Schema: {type: object, x-kubernetes-preserve-unknown-fields: true}}}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: equivalent}
spec:
  matchConstraints:
    resourceRules:
      - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
  validations:
    - expression: "object.apiVersion == 'example.com/v1' && object.spec.size < 3"
      messageExpression: "'judged as ' + object.apiVersion"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: equivalent}
spec: {policyName: equivalent, validationActions: [Deny]}
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata: {name: exact}
spec:
  matchConstraints:
    matchPolicy: Exact
    resourceRules:
      - {apiGroups: [example.com], apiVersions: [v1], operations: [CREATE], resources: [widgets]}
  validations:
    - expression: "false"
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata: {name: exact}
spec: {policyName: exact, validationActions: [Deny]}
---
apiVersion: example.com/v2
kind: Widget
metadata: {name: big, namespace: a}
spec: {size: 5}
`
	objs, probs := manifest.Parse("w.yaml", []byte(src))
	if len(probs) > 0 {
		t.Fatal(probs[0])
	}
	set, ps := Load(objs, Options{})
	if len(ps) > 0 {
		t.Fatal(ps[0])
	}
	var got []string
	for _, v := range set.Check(find(objs, "Widget", "big")) {
		got = append(got, v.Policy+" "+v.Result+": "+v.Message)
	}
	if strings.Join(got, "|") != "equivalent fail: judged as example.com/v1" {
		t.Errorf("got %q", got)
	}
}
