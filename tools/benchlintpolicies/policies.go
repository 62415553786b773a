package main

import (
	"fmt"
	"strings"
)

// policyTemplates are the shapes of the generated policies: what a team's
// own policies check on the corpus's Deployments, Services and ConfigMaps
// (the corpus of tools/benchlint). %[1]d is a number that makes each
// policy's threshold differ.
var policyTemplates = []struct{ resource, group, expr, msg string }{
	{"deployments", "apps", "object.spec.replicas <= %[1]d", "'too many replicas: ' + string(object.spec.replicas)"},
	{"deployments", "apps", "object.spec.template.spec.containers.all(c, c.image.matches('^[a-z0-9.-]+(/[a-z0-9._-]+)*:[a-z0-9._-]+$'))", "'untagged image in ' + object.metadata.name"},
	{"deployments", "apps", "object.spec.template.spec.containers.all(c, !has(c.resources) || !has(c.resources.limits) || !('memory' in c.resources.limits) || quantity(c.resources.limits.memory).isLessThan(quantity('%[1]dGi')))", "'memory limit too high'"},
	{"deployments", "apps", "has(object.metadata.labels) && object.metadata.labels.size() >= 1", "'labels required'"},
	{"services", "", "!has(object.spec.ports) || object.spec.ports.all(p, p.port != %[1]d)", "'port %[1]d is reserved'"},
	{"services", "", "!has(object.spec.type) || object.spec.type != 'NodePort'", "'no NodePort'"},
	{"configmaps", "", "!has(object.data) || object.data.size() <= %[1]d", "'too many keys'"},
	{"configmaps", "", "!has(object.data) || object.data.all(k, k.matches('^[A-Za-z0-9_.-]+$'))", "'bad key'"},
	{"*", "*", "object.metadata.name.size() <= %[1]d", "'name too long: ' + object.metadata.name"},
	{"deployments", "apps", "!has(object.metadata.annotations) || !('docs' in object.metadata.annotations) || isURL(object.metadata.annotations['docs'])", "'docs must be a URL'"},
}

// policies writes n policies and a binding of each (Deny, Warn and Audit
// in turn) as one YAML stream.
func policies(n int) string {
	var b strings.Builder
	actions := []string{"Deny", "Warn", "Audit"}
	for i := 0; i < n; i++ {
		t := policyTemplates[i%len(policyTemplates)]
		k := 2 + i
		expr := fmt.Sprintf(t.expr, k)
		if !strings.Contains(t.expr, "%[1]d") {
			expr = t.expr
		}
		msg := fmt.Sprintf(t.msg, k)
		if !strings.Contains(t.msg, "%[1]d") {
			msg = t.msg
		}
		fmt.Fprintf(&b, `---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: bench-%[1]d
spec:
  matchConstraints:
    resourceRules:
      - apiGroups: [%[2]q]
        apiVersions: ["*"]
        operations: ["CREATE", "UPDATE"]
        resources: [%[3]q]
  validations:
    - expression: %[4]q
      messageExpression: %[5]q
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: bench-%[1]d
spec:
  policyName: bench-%[1]d
  validationActions: [%[6]s]
`, i, t.group, t.resource, expr, msg, actions[i%len(actions)])
	}
	return b.String()
}
