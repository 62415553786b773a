package admission

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"

	v1 "k8s.io/api/admissionregistration/v1"
	plugincel "k8s.io/apiserver/pkg/admission/plugin/cel"

	"k8s.io/apiserver/pkg/admission/plugin/webhook/matchconditions"
	"k8s.io/apiserver/pkg/cel/environment"

	"github.com/kubeplan/kubeplan/manifest"
)

// baseEnv is the API server's CEL environment (libraries, cost limits),
// made once and only when there are policies.
var baseEnv = sync.OnceValue(func() *environment.EnvSet {
	return environment.MustBaseEnvSet(environment.DefaultCompatibilityVersion())
})

// compiled is one policy ready to judge objects.
type compiled struct {
	policy *v1.ValidatingAdmissionPolicy
	obj    *manifest.Object
	// judge decides on the validations that can be evaluated offline;
	// index maps its outcomes back to spec.validations.
	judge *policyJudge
	index []int
	// offline says why a part of the policy cannot be evaluated offline:
	// whole is set when its matchConditions need the request's user, and
	// skipped lists the validations that do.
	whole   string
	skipped []int
}

// compilePolicy compiles p as the API server's validating plugin does
// (plugin.go's compilePolicy), leaving out the validations that need who
// sends the request. p is one compileProblems found nothing in.
func compilePolicy(p *v1.ValidatingAdmissionPolicy, o *manifest.Object) (*compiled, []*manifest.Problem) {
	c := &compiled{policy: p, obj: o}
	taint := offlineTaint(p)
	c.whole = taint.matchConditions
	var vals []v1.Validation
	for i, v := range p.Spec.Validations {
		if taint.validations[i] != "" {
			c.skipped = append(c.skipped, i)
			continue
		}
		vals = append(vals, v)
		c.index = append(c.index, i)
	}
	hasParam := p.Spec.ParamKind != nil
	optionalVars := plugincel.OptionalVariableDeclarations{HasParams: hasParam, HasAuthorizer: true}
	messageVars := plugincel.OptionalVariableDeclarations{HasParams: hasParam, HasAuthorizer: false}
	fc, err := plugincel.NewCompositedCompiler(baseEnv())
	if err != nil {
		return nil, []*manifest.Problem{problemAt(o, fmt.Sprintf("ValidatingAdmissionPolicy %s: %v", p.Name, err))}
	}
	fc.CompileAndStoreVariables(variableExprs(p.Spec.Variables), optionalVars, environment.StoredExpressions)
	var matcher matchconditions.Matcher
	if mcs := p.Spec.MatchConditions; len(mcs) > 0 && c.whole == "" {
		acc := make([]plugincel.ExpressionAccessor, len(mcs))
		for i := range mcs {
			acc[i] = (*matchconditions.MatchCondition)(&mcs[i])
		}
		matcher = matchconditions.NewMatcher(fc.CompileCondition(acc, optionalVars, environment.StoredExpressions), p.Spec.FailurePolicy, "policy", "validate", p.Name)
	}
	c.judge = &policyJudge{
		validations: vals,
		checks:      fc.CompileCondition(validationExprs(vals), optionalVars, environment.StoredExpressions),
		messages:    fc.CompileCondition(messageExprs(vals), messageVars, environment.StoredExpressions),
		annotations: fc.CompileCondition(annotationExprs(p.Spec.AuditAnnotations), optionalVars, environment.StoredExpressions),
		match:       matcher,
		ignore:      p.Spec.FailurePolicy != nil && *p.Spec.FailurePolicy == v1.Ignore,
	}
	return c, nil
}

// compileProblems compiles every expression of p in the environment the
// API server checks new policies with, and reports each that does not
// compile at its place in o.
func compileProblems(p *v1.ValidatingAdmissionPolicy, o *manifest.Object) []*manifest.Problem {
	hasParam := p.Spec.ParamKind != nil
	withAuthz := plugincel.OptionalVariableDeclarations{HasParams: hasParam, HasAuthorizer: true}
	noAuthz := plugincel.OptionalVariableDeclarations{HasParams: hasParam}
	fc, err := plugincel.NewCompositedCompiler(baseEnv())
	if err != nil {
		return []*manifest.Problem{problemAt(o, err.Error())}
	}
	var probs []*manifest.Problem
	check := func(res plugincel.CompilationResult, path ...string) {
		if res.Error != nil {
			probs = append(probs, exprProblem(o, p.Name, res.ExpressionAccessor.GetExpression(), res.Error.Detail, path))
		}
	}
	mode := environment.NewExpressions
	blank := func(e string) bool { return strings.TrimSpace(e) == "" } // validate.go says these are required
	for i, v := range variableExprs(p.Spec.Variables) {
		if !blank(v.GetExpression()) {
			check(fc.CompileAndStoreVariable(v, withAuthz, mode), "spec", "variables", strconv.Itoa(i), "expression")
		}
	}
	for i, mc := range p.Spec.MatchConditions {
		if !blank(mc.Expression) {
			mc.Expression = strings.TrimSpace(mc.Expression)
			check(fc.CompileCELExpression((*matchconditions.MatchCondition)(&mc), withAuthz, mode), "spec", "matchConditions", strconv.Itoa(i), "expression")
		}
	}
	for i, v := range p.Spec.Validations {
		if !blank(v.Expression) {
			check(fc.CompileCELExpression(validationExpr(v.Expression), withAuthz, mode), "spec", "validations", strconv.Itoa(i), "expression")
		}
		if !blank(v.MessageExpression) {
			check(fc.CompileCELExpression(messageExpr(v.MessageExpression), noAuthz, mode), "spec", "validations", strconv.Itoa(i), "messageExpression")
		}
	}
	for i, a := range p.Spec.AuditAnnotations {
		if e := strings.TrimSpace(a.ValueExpression); e != "" && len(e) <= maxAnnotationExpressionSize {
			check(fc.CompileCELExpression(annotationExpr(e), withAuthz, mode), "spec", "auditAnnotations", strconv.Itoa(i), "valueExpression")
		}
	}
	return probs
}

func validationExprs(in []v1.Validation) []plugincel.ExpressionAccessor {
	out := make([]plugincel.ExpressionAccessor, len(in))
	for i, v := range in {
		out[i] = validationExpr(v.Expression)
	}
	return out
}

func messageExprs(in []v1.Validation) []plugincel.ExpressionAccessor {
	out := make([]plugincel.ExpressionAccessor, len(in))
	for i, v := range in {
		if v.MessageExpression != "" {
			out[i] = messageExpr(v.MessageExpression)
		}
	}
	return out
}

func annotationExprs(in []v1.AuditAnnotation) []plugincel.ExpressionAccessor {
	out := make([]plugincel.ExpressionAccessor, len(in))
	for i, a := range in {
		out[i] = annotationExpr(a.ValueExpression)
	}
	return out
}

func variableExprs(in []v1.Variable) []plugincel.NamedExpressionAccessor {
	out := make([]plugincel.NamedExpressionAccessor, len(in))
	for i, v := range in {
		out[i] = variableExpr{name: v.Name, expr: v.Expression}
	}
	return out
}

// problemAt is a Problem at the field path of o (its start when the path
// is not there).
func problemAt(o *manifest.Object, msg string, path ...string) *manifest.Problem {
	start, end := o.Span(path...)
	return &manifest.Problem{File: o.File, Pos: start, End: end, Rule: Rule, Message: msg}
}

func dotted(path []string) string {
	s := ""
	for i, p := range path {
		if _, err := strconv.Atoi(p); err == nil {
			s += "[" + p + "]"
			continue
		}
		if i > 0 {
			s += "."
		}
		s += p
	}
	return s
}

// celPos finds "<input>:LINE:COL: message" in a CEL compile error.
var celPos = regexp.MustCompile(`<input>:(\d+):(\d+): ([^\n]*)`)

// exprProblem reports a compile error of expr at the place in o the error
// points at: the column inside the expression when it is on one line.
func exprProblem(o *manifest.Object, policy, expr, detail string, path []string) *manifest.Problem {
	msg := detail
	var line, col int
	if m := celPos.FindStringSubmatch(detail); m != nil {
		line, _ = strconv.Atoi(m[1])
		col, _ = strconv.Atoi(m[2])
		msg = m[3]
	}
	p := problemAt(o, fmt.Sprintf("ValidatingAdmissionPolicy %s: %s does not compile: %s", policy, dotted(path), msg), path...)
	width := p.End.Col - p.Col
	if line == 1 && !strings.Contains(expr, "\n") && (width == len([]rune(expr)) || width == len([]rune(expr))+2) {
		if width == len([]rune(expr))+2 {
			col++ // the opening quote
		}
		p.Col += col - 1
		p.End = p.Pos
	}
	return p
}
