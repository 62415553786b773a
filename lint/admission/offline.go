package admission

import (
	"regexp"

	v1 "k8s.io/api/admissionregistration/v1"
)

// needsRequester matches what only the API server knows: who sends the
// request (request.userInfo) and what they may do (authorizer).
var needsRequester = regexp.MustCompile(`\bauthorizer\b|\brequest\s*\.\s*userInfo\b`)

// taint says which parts of a policy read the requester, directly or
// through variables; the strings are the reason, "" when evaluable.
type taint struct {
	matchConditions string
	validations     []string
}

const notEvaluable = "reads authorizer or request.userInfo, which only the API server knows"

func offlineTaint(p *v1.ValidatingAdmissionPolicy) taint {
	tainted := map[string]bool{}
	// Variables may use variables defined before them.
	for _, v := range p.Spec.Variables {
		if uses(v.Expression, tainted) {
			tainted[v.Name] = true
		}
	}
	t := taint{validations: make([]string, len(p.Spec.Validations))}
	for _, mc := range p.Spec.MatchConditions {
		if uses(mc.Expression, tainted) {
			t.matchConditions = notEvaluable
		}
	}
	for i, v := range p.Spec.Validations {
		if uses(v.Expression, tainted) || uses(v.MessageExpression, tainted) {
			t.validations[i] = notEvaluable
		}
	}
	return t
}

var variableRef = regexp.MustCompile(`\bvariables\s*\.\s*([A-Za-z_][A-Za-z0-9_]*)`)

func uses(expr string, tainted map[string]bool) bool {
	if needsRequester.MatchString(expr) {
		return true
	}
	for _, m := range variableRef.FindAllStringSubmatch(expr, -1) {
		if tainted[m[1]] {
			return true
		}
	}
	return false
}
