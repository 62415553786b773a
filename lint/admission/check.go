package admission

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	v1 "k8s.io/api/admissionregistration/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apiserver/pkg/admission"

	"github.com/kubeplan/kubeplan/manifest"
)

// Results of a Verdict.
const (
	Pass         = "pass"          // matched, and every validation held
	Fail         = "fail"          // a validation failed
	Skip         = "skip"          // matched by rules, but matchConditions said no, no params, or an error failurePolicy Ignore dropped
	Error        = "error"         // a runtime or configuration error under failurePolicy Fail
	NotEvaluable = "not-evaluable" // needs who sends the request
)

// Actions of a Verdict, from the binding's validationActions.
const (
	Deny  = "Deny"
	Warn  = "Warn"
	Audit = "Audit"
)

// Verdict is what one binding of one policy says about one object.
type Verdict struct {
	Policy, Binding string
	// PolicyFile is the file the policy was read from; PolicyObject the
	// policy itself.
	PolicyFile   string
	PolicyObject *manifest.Object `json:"-"`
	// Action is the strongest of the binding's validationActions (Deny,
	// Warn, Audit) for a fail or error; Actions all of them.
	Action  string
	Actions []string
	// Message is the API server's message for a fail or error (an info's
	// text for skip and not-evaluable), "" for pass.
	Message string
	// FieldPath is the failed validation's fieldPath, as written.
	FieldPath string
	// Reason is the failed validation's reason (Invalid by default).
	Reason string
	// Validation is the index of the validation in spec.validations, -1
	// when the verdict is not about one validation.
	Validation int
	Result     string
	// Resource is the object's group and resource ("deployments.apps"),
	// as the API server names it in its denial.
	Resource string
}

// Check judges obj against every policy of the set, as a CREATE: one
// Verdict per matching binding (one per failed validation), in order of
// policy and binding name.
func (s *Set) Check(obj *manifest.Object) []Verdict {
	out, _ := s.CheckContext(context.Background(), obj)
	return out
}

// CheckContext is Check within ctx: every CEL evaluation runs with ctx (the
// API server's interrupt check stops a costly one part way) and, as in the
// API server, within the per-call cost budget (celconfig's
// RuntimeCELCostBudget) and the per-expression limit set when compiling.
// Once ctx is done it stops, before the next policy, with an error naming
// the object, the policy and ctx's cause.
func (s *Set) CheckContext(ctx context.Context, obj *manifest.Object) ([]Verdict, error) {
	if s == nil || len(s.policies) == 0 {
		return nil, nil
	}
	attr, res := s.attributes(obj)
	// As the API server does for one request, the object is converted to
	// each matched version, and made an admission request, once for all
	// policies.
	reqs := &requests{attr: attr}
	var out []Verdict
	for _, c := range s.policies {
		p := c.policy
		if !c.mayMatch(res.gvr) {
			continue
		}
		if ctx.Err() != nil {
			return nil, stoppedError(ctx, obj, p.Name)
		}
		base := Verdict{Policy: p.Name, PolicyFile: c.obj.File, PolicyObject: c.obj, Validation: -1, Resource: res.gvr.GroupResource().String()}
		matches, gvr, gvk, err := s.matcher.definitionMatches(attr, s.oi, p)
		if err != nil {
			out = append(out, configError(base, p, "policy", err))
			continue
		}
		if !matches {
			continue
		}
		for _, bd := range s.bindings[p.Name] {
			b := bd.b
			v := base
			v.Binding = b.Name
			v.Actions = actions(b)
			v.Action = strongest(v.Actions)
			ok, err := s.matcher.bindingMatches(attr, s.oi, b)
			if err != nil {
				out = append(out, configError(v, p, "binding", err))
				continue
			}
			if !ok {
				continue
			}
			if c.whole != "" {
				v.Result, v.Message = NotEvaluable, "matchConditions "+c.whole
				out = append(out, v)
				continue
			}
			if ref := b.Spec.ParamRef; ref != nil && p.Spec.ParamKind != nil && ref.Namespace == "" && res.namespaced && attr.GetNamespace() == "" && s.namespacedParams(p.Spec.ParamKind) {
				// The API server would look in the object's namespace (a
				// cluster-scoped param it finds by name wherever the object is).
				v.Result, v.Message = NotEvaluable, "the object has no namespace (set metadata.namespace or --namespace), where the binding's paramRef looks for its parameters"
				out = append(out, v)
				continue
			}
			out = append(out, s.evaluate(ctx, c, v, reqs, gvr, gvk)...)
			if ctx.Err() != nil {
				// an evaluation cut short is no verdict
				return nil, stoppedError(ctx, obj, p.Name)
			}
		}
	}
	return out, nil
}

// stoppedError says which evaluation ctx stopped, and why.
func stoppedError(ctx context.Context, obj *manifest.Object, policy string) error {
	return fmt.Errorf("policy evaluation stopped at %s (%s), ValidatingAdmissionPolicy %s: %w", obj.String(), obj.File, policy, context.Cause(ctx))
}

// mayMatch is false when no resource rule of the policy can match the
// resource gvr in a CREATE, in any version: then the API server's matching
// says no without an error whatever the selectors, so it need not run.
// (Equivalent versions share the group and resource; a rule with a
// subresource pattern is not judged here.)
func (c *compiled) mayMatch(gvr schemaGVR) bool {
	rules := c.policy.Spec.MatchConstraints.ResourceRules
	if len(rules) == 0 {
		return true
	}
	for _, r := range rules {
		if (has(r.APIGroups, "*") || has(r.APIGroups, gvr.Group)) &&
			(hasOp(r.Operations, "*") || hasOp(r.Operations, "CREATE")) &&
			slices.ContainsFunc(r.Resources, func(res string) bool {
				return res == "*" || res == gvr.Resource || strings.Contains(res, "/")
			}) {
			return true
		}
	}
	return false
}

func hasOp(ops []v1.OperationType, op v1.OperationType) bool { return slices.Contains(ops, op) }

// evaluate runs the validations of c for one matching binding.
func (s *Set) evaluate(ctx context.Context, c *compiled, v Verdict, reqs *requests, gvr schemaGVR, gvk schemaGVK) []Verdict {
	p, b := c.policy, c.bindingOf(v.Binding, s)
	ps, err := s.collect(p.Spec.ParamKind, b.Spec.ParamRef, reqs.attr.GetNamespace())
	if err != nil {
		return []Verdict{configError(v, p, "binding", err)}
	}
	if len(ps) == 0 {
		v.Result, v.Message = Skip, "no parameters found for the binding (parameterNotFoundAction Allow)"
		return []Verdict{v}
	}
	req, err := s.requestFor(reqs, gvr, gvk)
	if err != nil {
		return []Verdict{configError(v, p, "binding", fmt.Errorf("failed to convert object version: %w", err))}
	}
	var out []Verdict
	for _, param := range ps {
		outs, matched := c.judge.verdictOf(ctx, req, param)
		out = append(out, c.verdicts(v, outs, matched)...)
	}
	for _, i := range c.skipped {
		w := v
		w.Result, w.Validation, w.Message = NotEvaluable, i, fmt.Sprintf("validation %d %s", i, notEvaluable)
		out = append(out, w)
	}
	if len(out) == 0 {
		v.Result = Pass
		out = append(out, v)
	}
	return out
}

// verdicts turns the outcomes of one evaluation into Verdicts; none when
// every validation held.
func (c *compiled) verdicts(v Verdict, outs []outcome, matched bool) []Verdict {
	if !matched {
		if len(c.index) == 0 {
			return nil // nothing would have been validated anyway
		}
		v.Result, v.Message = Skip, "matchConditions do not match"
		return []Verdict{v}
	}
	var out []Verdict
	for _, o := range outs {
		w := v
		if o.index >= 0 {
			w.Validation = c.index[o.index]
		}
		switch {
		case o.kind == held:
			continue
		case o.kind == violated:
			w.FieldPath = c.obj.GetString("spec", "validations", strconv.Itoa(w.Validation), "fieldPath")
			w.Result, w.Message, w.Reason = Fail, o.message, string(o.reason)
		case c.judge.ignore: // failurePolicy Ignore admits on an error
			w.Result, w.Message = Skip, "error ignored (failurePolicy Ignore): "+o.message
		default:
			w.Result, w.Message = Error, o.message
		}
		out = append(out, w)
	}
	return out
}

func (c *compiled) bindingOf(name string, s *Set) *v1.ValidatingAdmissionPolicyBinding {
	for _, b := range s.bindings[c.policy.Name] {
		if b.b.Name == name {
			return b.b
		}
	}
	return nil
}

// configError is the API server's answer to a policy or binding it cannot
// apply: a denial under failurePolicy Fail, nothing under Ignore.
func configError(v Verdict, p *v1.ValidatingAdmissionPolicy, what string, err error) Verdict {
	v.Message = fmt.Sprintf("failed to configure %s: %v", what, err)
	v.Action, v.Actions = Deny, []string{Deny}
	if p.Spec.FailurePolicy != nil && *p.Spec.FailurePolicy == v1.Ignore {
		v.Result = Skip
		v.Message = "error ignored (failurePolicy Ignore): " + v.Message
		return v
	}
	v.Result = Error
	return v
}

func actions(b *v1.ValidatingAdmissionPolicyBinding) []string {
	out := make([]string, len(b.Spec.ValidationActions))
	for i, a := range b.Spec.ValidationActions {
		out[i] = string(a)
	}
	return out
}

// strongest is Deny over Warn over Audit.
func strongest(as []string) string {
	best := ""
	rank := map[string]int{Audit: 1, Warn: 2, Deny: 3}
	for _, a := range as {
		if rank[a] > rank[best] {
			best = a
		}
	}
	return best
}

// requests are one object's requests, by the resource and version a
// policy matched it as.
type requests struct {
	attr      admission.Attributes
	versioned map[schemaGVK]*admission.VersionedAttributes
	byGVR     map[requestKey]*request
}

type requestKey struct {
	gvr schemaGVR
	gvk schemaGVK
}

// requestFor is the object's request as gvr in version gvk, made once.
func (s *Set) requestFor(r *requests, gvr schemaGVR, gvk schemaGVK) (*request, error) {
	key := requestKey{gvr, gvk}
	if req := r.byGVR[key]; req != nil {
		return req, nil
	}
	va := r.versioned[gvk]
	if va == nil {
		var err error
		if va, err = admission.NewVersionedAttributes(r.attr, gvk, s.oi); err != nil {
			return nil, err
		}
		if r.versioned == nil {
			r.versioned = map[schemaGVK]*admission.VersionedAttributes{}
		}
		r.versioned[gvk] = va
	}
	var ns *corev1.Namespace
	if k := r.attr.GetKind(); r.attr.GetNamespace() != "" && !(k.Group == "" && k.Version == "v1" && k.Kind == "Namespace") {
		ns, _ = s.ns.Get(r.attr.GetNamespace())
	}
	req := newRequest(gvr, va, ns)
	if r.byGVR == nil {
		r.byGVR = map[requestKey]*request{}
	}
	r.byGVR[key] = req
	return req, nil
}

// namespacedParams reports whether the objects of kind are namespaced (an
// unknown kind is: collect says it is not known).
func (s *Set) namespacedParams(kind *v1.ParamKind) bool {
	res, ok := s.res.kindKnown(kind.APIVersion, kind.Kind)
	return !ok || res.namespaced
}
