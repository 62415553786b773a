package admission

import (
	"context"
	"errors"
	"fmt"
	"strings"

	celgo "github.com/google/cel-go/cel"
	celtypes "github.com/google/cel-go/common/types"
	admissionv1 "k8s.io/api/admission/v1"
	v1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apiserver/pkg/admission"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"
	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	celconfig "k8s.io/apiserver/pkg/apis/cel"
	apiservercel "k8s.io/apiserver/pkg/cel"
)

// The expressions of a policy, as the API server's CEL compiler takes them
// (plugincel.ExpressionAccessor): each kind says what its result must be.
type (
	// validationExpr is a validation's expression: true when it holds.
	validationExpr string
	// messageExpr is a validation's messageExpression: the denial's text.
	messageExpr string
	// annotationExpr is an auditAnnotation's valueExpression: a string, or
	// null for none.
	annotationExpr string
	// variableExpr is one of spec.variables: any type, known by its name.
	variableExpr struct{ name, expr string }
)

func (e validationExpr) GetExpression() string    { return string(e) }
func (validationExpr) ReturnTypes() []*celgo.Type { return []*celgo.Type{celgo.BoolType} }
func (e messageExpr) GetExpression() string       { return string(e) }
func (messageExpr) ReturnTypes() []*celgo.Type    { return []*celgo.Type{celgo.StringType} }
func (e annotationExpr) GetExpression() string    { return string(e) }
func (annotationExpr) ReturnTypes() []*celgo.Type {
	return []*celgo.Type{celgo.StringType, celgo.NullType}
}
func (e variableExpr) GetExpression() string    { return e.expr }
func (e variableExpr) GetName() string          { return e.name }
func (variableExpr) ReturnTypes() []*celgo.Type { return []*celgo.Type{celgo.AnyType, celgo.DynType} }

// outcome is the API server's decision on one validation of a policy for
// one object and one param.
type outcome struct {
	kind    outcomeKind
	message string              // why it was violated, or the error
	reason  metav1.StatusReason // of a violation
	index   int                 // the validation's index; -1 for an error of the whole policy
}

type outcomeKind int

const (
	held     outcomeKind = iota // the expression returned true
	violated                    // it returned false
	failed                      // it could not be evaluated; failurePolicy decides
)

// policyJudge is a compiled policy, ready to decide for objects.
type policyJudge struct {
	validations []v1.Validation
	checks      plugincel.ConditionEvaluator // one per validation
	messages    plugincel.ConditionEvaluator // one per validation, nil entries without messageExpression
	annotations plugincel.ConditionEvaluator
	match       matchconditions.Matcher // nil without matchConditions
	ignore      bool                    // failurePolicy Ignore: a failed audit annotation is left out
}

// verdictOf evaluates the policy for the request in (the object, as the
// resource the policy matched) with one param (nil without paramKind). It
// decides as the API server's ValidatingAdmissionPolicy plugin does:
//   - an error in matchConditions, in evaluating the validations as a
//     whole, or in the audit annotations as a whole is one failed outcome
//     for the policy (index -1);
//   - matchConditions that do not hold mean nothing is validated (matched
//     is false);
//   - a validation that errs is failed; so is every validation when the
//     messageExpressions ran out of cost budget or hit an internal error;
//   - a violation's message is its messageExpression's string when that is
//     non-empty after trimming, at most celconfig's limit and on one line;
//     else its trimmed message; else "failed expression: " and the trimmed
//     expression. Its reason is the validation's, Invalid by default;
//   - an audit annotation that errs or returns neither string nor null is a
//     failed outcome as well, unless failurePolicy is Ignore.
func (j *policyJudge) verdictOf(ctx context.Context, in *request, param runtime.Object) (out []outcome, matched bool) {
	va := in.va
	whole := func(err error) []outcome { return []outcome{{kind: failed, message: err.Error(), index: -1}} }
	if j.match != nil {
		m := j.match.Match(ctx, va, param, nil)
		if m.Error != nil {
			return whole(m.Error), true
		}
		if !m.Matches {
			return nil, false
		}
	}
	req, nsObj := in.admission, in.nsObject
	budget := int64(celconfig.RuntimeCELCostBudget)
	results, left, err := j.checks.ForInput(ctx, va, req, plugincel.OptionalVariableBindings{VersionedParams: param}, nsObj, budget)
	if err != nil {
		return whole(err), true
	}
	msgs, _, msgErr := j.messages.ForInput(ctx, va, req, plugincel.OptionalVariableBindings{VersionedParams: param}, nsObj, left)
	budgetGone := errors.Is(msgErr, apiservercel.ErrInternal) || errors.Is(msgErr, apiservercel.ErrOutOfBudget)
	for i, r := range results {
		o := outcome{index: i}
		switch {
		case r.Error != nil:
			o.kind, o.message = failed, r.Error.Error()
		case budgetGone:
			o.kind, o.message = failed, "failed messageExpression: "+msgErr.Error()
		case r.EvalResult == celtypes.True:
			o.kind = held
		default:
			o.kind = violated
			o.reason = metav1.StatusReasonInvalid
			if v := j.validations[i]; v.Reason != nil {
				o.reason = *v.Reason
			}
			o.message = j.violationMessage(i, msgs)
		}
		out = append(out, o)
	}
	anns, _, err := j.annotations.ForInput(ctx, va, req, plugincel.OptionalVariableBindings{VersionedParams: param}, in.namespace, budget)
	if err != nil {
		return whole(err), true
	}
	for _, a := range anns {
		if a.ExpressionAccessor == nil || j.ignore {
			continue
		}
		switch {
		case a.Error != nil:
			out = append(out, outcome{kind: failed, message: a.Error.Error(), index: -1})
		case a.EvalResult.Type() != celtypes.StringType && a.EvalResult.Type() != celtypes.NullType:
			out = append(out, outcome{kind: failed, index: -1, message: fmt.Sprintf(
				"valueExpression '%v' resulted in unsupported return type: %v. Return type must be either string or null.",
				a.ExpressionAccessor.GetExpression(), a.EvalResult.Type())})
		}
	}
	return out, true
}

// violationMessage is the text of validation i's violation (see verdictOf).
func (j *policyJudge) violationMessage(i int, msgs []plugincel.EvaluationResult) string {
	if i < len(msgs) && msgs[i].Error == nil && msgs[i].EvalResult != nil {
		if s, ok := msgs[i].EvalResult.Value().(string); ok {
			s = strings.TrimSpace(s)
			if s != "" && len(s) <= celconfig.MaxEvaluatedMessageExpressionSizeBytes && !strings.Contains(s, "\n") {
				return s
			}
		}
	}
	v := j.validations[i]
	if m := strings.TrimSpace(v.Message); m != "" {
		return m
	}
	return "failed expression: " + strings.TrimSpace(v.Expression)
}

// request is one object as a request for the resource a policy matched:
// the object in the matched version, the admission request and the
// Namespace the expressions see. The API server builds these once per
// request, not per policy; Check does the same (requestFor).
type request struct {
	va        *admission.VersionedAttributes
	admission *admissionv1.AdmissionRequest
	namespace *corev1.Namespace // nil for a cluster-scoped object or a Namespace
	nsObject  *corev1.Namespace // what `namespaceObject` shows of it
}

func newRequest(gvr schema.GroupVersionResource, va *admission.VersionedAttributes, ns *corev1.Namespace) *request {
	return &request{va: va, namespace: ns, nsObject: plugincel.CreateNamespaceObject(ns),
		admission: plugincel.CreateAdmissionRequest(va.Attributes, metav1.GroupVersionResource(gvr), metav1.GroupVersionKind(va.VersionedKind))}
}
