package admission

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	v1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/api/validate/content"
	apivalidation "k8s.io/apimachinery/pkg/api/validation"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	metav1validation "k8s.io/apimachinery/pkg/apis/meta/v1/validation"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// The rules below are the API server's for creating a
// ValidatingAdmissionPolicy or a binding (k8s.io/kubernetes
// pkg/apis/admissionregistration/validation, 1.37, and the reserved
// ".static.k8s.io" suffix its strategy refuses), written again here: that
// package may not be imported. Its CEL compilation is compile.go's
// compileProblems. test/admissiondiff holds them to a real API server.

// staticSuffix ends the names reserved for policies the API server reads
// from its own manifest files.
const staticSuffix = ".static.k8s.io"

var (
	failurePolicies = []string{string(v1.Fail), string(v1.Ignore)}
	matchPolicies   = []string{string(v1.Equivalent), string(v1.Exact)}
	scopes          = []string{string(v1.AllScopes), string(v1.ClusterScope), string(v1.NamespacedScope)}
	operations      = []string{string(v1.OperationAll), string(v1.Connect), string(v1.Create), string(v1.Delete), string(v1.Update)}
	reasons         = []string{string(metav1.StatusReasonForbidden), string(metav1.StatusReasonInvalid), string(metav1.StatusReasonRequestEntityTooLarge)}
	actionsAllowed  = []string{string(v1.Audit), string(v1.Deny), string(v1.Warn)}
)

const (
	maxAuditAnnotations         = 20
	maxAnnotationExpressionSize = 5 * 1024
)

// defaultPolicy sets what the API server defaults in a policy.
func defaultPolicy(p *v1.ValidatingAdmissionPolicy) {
	if p.Spec.FailurePolicy == nil {
		f := v1.Fail
		p.Spec.FailurePolicy = &f
	}
	defaultMatch(p.Spec.MatchConstraints)
}

// validateMeta validates the metadata of a new cluster-scoped object as
// the API server does after it has dropped metadata.namespace and made a
// name of generateName.
func validateMeta(in *metav1.ObjectMeta) field.ErrorList {
	m := in.DeepCopy()
	m.Namespace = ""
	if m.Name == "" && m.GenerateName != "" {
		m.Name = generatedName(m.GenerateName)
	}
	errs := apivalidation.ValidateObjectMeta(m, false, apivalidation.NameIsDNSSubdomain, field.NewPath("metadata"))
	if strings.HasSuffix(m.Name, staticSuffix) {
		errs = append(errs, field.Invalid(field.NewPath("metadata", "name"), m.Name,
			fmt.Sprintf("names ending with %q are reserved for static manifest-based configurations and cannot be managed via the API", staticSuffix)))
	}
	return errs
}

// validatePolicy is the API server's validation of a new policy, but for
// the compilation of its expressions.
func validatePolicy(p *v1.ValidatingAdmissionPolicy) field.ErrorList {
	errs := validateMeta(&p.ObjectMeta)
	spec, path := &p.Spec, field.NewPath("spec")
	if !slices.Contains(failurePolicies, string(*spec.FailurePolicy)) {
		errs = append(errs, field.NotSupported(path.Child("failurePolicy"), *spec.FailurePolicy, failurePolicies))
	}
	if spec.ParamKind != nil {
		errs = append(errs, validateParamKind(spec.ParamKind, path.Child("paramKind"))...)
	}
	if spec.MatchConstraints == nil {
		errs = append(errs, field.Required(path.Child("matchConstraints"), ""))
	} else {
		errs = append(errs, validateMatch(spec.MatchConstraints, path.Child("matchConstraints"))...)
		if len(spec.MatchConstraints.ResourceRules) == 0 {
			errs = append(errs, field.Required(path.Child("matchConstraints", "resourceRules"), ""))
		}
	}
	errs = append(errs, validateMatchConditions(spec.MatchConditions, path.Child("matchConditions"))...)
	for i, v := range spec.Variables {
		vp := path.Child("variables").Index(i)
		if strings.TrimSpace(v.Name) == "" {
			errs = append(errs, field.Required(vp.Child("name"), "name is not specified"))
		} else if !isCELIdentifier(v.Name) {
			errs = append(errs, field.Invalid(vp.Child("name"), v.Name, "must be a valid CEL identifier"))
		}
		if strings.TrimSpace(v.Expression) == "" {
			errs = append(errs, field.Required(vp.Child("expression"), "expression is not specified"))
		}
	}
	if len(spec.Validations) == 0 && len(spec.AuditAnnotations) == 0 {
		errs = append(errs, field.Required(path.Child("validations"), "validations or auditAnnotations must contain at least one item"),
			field.Required(path.Child("auditAnnotations"), "validations or auditAnnotations must contain at least one item"))
		return errs
	}
	for i := range spec.Validations {
		errs = append(errs, validateValidation(&spec.Validations[i], path.Child("validations").Index(i))...)
	}
	if len(spec.AuditAnnotations) > maxAuditAnnotations {
		errs = append(errs, field.Invalid(path.Child("auditAnnotations"), spec.AuditAnnotations, fmt.Sprintf("must not have more than %d auditAnnotations", maxAuditAnnotations)))
	}
	keys := map[string]bool{}
	name := p.Name
	if name == "" && p.GenerateName != "" {
		name = generatedName(p.GenerateName)
	}
	for i, a := range spec.AuditAnnotations {
		ap := path.Child("auditAnnotations").Index(i)
		if name != "" {
			for _, msg := range validation.IsQualifiedName(name + "/" + a.Key) {
				errs = append(errs, field.Invalid(ap.Child("key"), name+"/"+a.Key, msg))
			}
		} else {
			errs = append(errs, field.Invalid(ap.Child("key"), a.Key, "requires metadata.name be non-empty"))
		}
		switch e := strings.TrimSpace(a.ValueExpression); {
		case e == "":
			errs = append(errs, field.Required(ap.Child("valueExpression"), "valueExpression is not specified"))
		case len(e) > maxAnnotationExpressionSize:
			errs = append(errs, field.Required(ap.Child("valueExpression"), fmt.Sprintf("must not exceed %d bytes in length", maxAnnotationExpressionSize)))
		}
		if keys[a.Key] {
			errs = append(errs, field.Duplicate(ap.Child("key"), a.Key))
		}
		keys[a.Key] = true
	}
	return errs
}

func validateValidation(v *v1.Validation, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if strings.TrimSpace(v.Expression) == "" {
		errs = append(errs, field.Required(path.Child("expression"), "expression is not specified"))
	}
	if v.MessageExpression != "" && strings.TrimSpace(v.MessageExpression) == "" {
		errs = append(errs, field.Invalid(path.Child("messageExpression"), v.MessageExpression, "must be non-empty if specified"))
	}
	msg := strings.TrimSpace(v.Message)
	if v.Message != "" && msg == "" {
		errs = append(errs, field.Invalid(path.Child("message"), v.Message, "must be non-empty if specified"))
	} else if strings.ContainsAny(msg, "\n\r") {
		errs = append(errs, field.Invalid(path.Child("message"), v.Message, "must not contain line breaks"))
	}
	if v.Reason != nil && !slices.Contains(reasons, string(*v.Reason)) {
		errs = append(errs, field.NotSupported(path.Child("reason"), *v.Reason, reasons))
	}
	return errs
}

func validateParamKind(k *v1.ParamKind, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	av := path.Child("apiVersion")
	switch gv := k.APIVersion; {
	case gv == "":
		errs = append(errs, field.Required(av, ""))
	case strings.Count(gv, "/") > 1:
		errs = append(errs, field.Invalid(av, gv, fmt.Sprintf("unexpected GroupVersion string: %v", gv)))
	case gv != "/":
		group, version := "", gv
		if i := strings.Index(gv, "/"); i >= 0 {
			group, version = gv[:i], gv[i+1:]
		}
		if group != "" {
			if msgs := validation.IsDNS1123Subdomain(group); len(msgs) > 0 {
				errs = append(errs, field.Invalid(av, group, strings.Join(msgs, ",")))
			}
		}
		if version == "" {
			errs = append(errs, field.Invalid(av, gv, "version must be specified"))
		} else if msgs := validation.IsDNS1035Label(version); len(msgs) > 0 {
			errs = append(errs, field.Invalid(av, version, strings.Join(msgs, ",")))
		}
	default: // "/" is parsed as no group and no version
		errs = append(errs, field.Invalid(av, gv, "version must be specified"))
	}
	if k.Kind == "" {
		errs = append(errs, field.Required(path.Child("kind"), ""))
	} else if msgs := validation.IsDNS1035Label(strings.ToLower(k.Kind)); len(msgs) > 0 {
		errs = append(errs, field.Invalid(path.Child("kind"), k.Kind, "may have mixed case, but should otherwise match: "+strings.Join(msgs, ",")))
	}
	return errs
}

// validateMatch checks matchConstraints or a binding's matchResources
// (after the API server's defaults).
func validateMatch(m *v1.MatchResources, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if m == nil {
		return nil
	}
	if !slices.Contains(matchPolicies, string(*m.MatchPolicy)) {
		errs = append(errs, field.NotSupported(path.Child("matchPolicy"), *m.MatchPolicy, matchPolicies))
	}
	errs = append(errs, metav1validation.ValidateLabelSelector(m.NamespaceSelector, metav1validation.LabelSelectorValidationOptions{}, path.Child("namespaceSelector"))...)
	errs = append(errs, metav1validation.ValidateLabelSelector(m.ObjectSelector, metav1validation.LabelSelectorValidationOptions{}, path.Child("objectSelector"))...)
	for i := range m.ResourceRules {
		errs = append(errs, validateNamedRule(&m.ResourceRules[i], path.Child("resourceRules").Index(i))...)
	}
	for i := range m.ExcludeResourceRules {
		errs = append(errs, validateNamedRule(&m.ExcludeResourceRules[i], path.Child("excludeResourceRules").Index(i))...)
	}
	return errs
}

func validateNamedRule(n *v1.NamedRuleWithOperations, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	seen := map[string]bool{}
	for i, name := range n.ResourceNames {
		for _, msg := range content.IsPathSegmentName(name) {
			errs = append(errs, field.Invalid(path.Child("resourceNames").Index(i), name, msg))
		}
		if seen[name] {
			errs = append(errs, field.Duplicate(path.Child("resourceNames").Index(i), name))
		}
		seen[name] = true
	}
	ops := n.Operations
	if len(ops) == 0 {
		errs = append(errs, field.Required(path.Child("operations"), ""))
	}
	if len(ops) > 1 && slices.Contains(ops, v1.OperationAll) {
		errs = append(errs, field.Invalid(path.Child("operations"), ops, "if '*' is present, must not specify other operations"))
	}
	for i, op := range ops {
		if !slices.Contains(operations, string(op)) {
			errs = append(errs, field.NotSupported(path.Child("operations").Index(i), op, operations))
		}
	}
	r := n.Rule
	if len(r.APIGroups) == 0 {
		errs = append(errs, field.Required(path.Child("apiGroups"), ""))
	}
	if len(r.APIGroups) > 1 && slices.Contains(r.APIGroups, "*") {
		errs = append(errs, field.Invalid(path.Child("apiGroups"), r.APIGroups, "if '*' is present, must not specify other API groups"))
	}
	if len(r.APIVersions) == 0 {
		errs = append(errs, field.Required(path.Child("apiVersions"), ""))
	}
	if len(r.APIVersions) > 1 && slices.Contains(r.APIVersions, "*") {
		errs = append(errs, field.Invalid(path.Child("apiVersions"), r.APIVersions, "if '*' is present, must not specify other API versions"))
	}
	for i, v := range r.APIVersions {
		if v == "" {
			errs = append(errs, field.Required(path.Child("apiVersions").Index(i), ""))
		}
	}
	errs = append(errs, validateResources(r.Resources, path.Child("resources"))...)
	if r.Scope != nil && !slices.Contains(scopes, string(*r.Scope)) {
		errs = append(errs, field.NotSupported(path.Child("scope"), *r.Scope, scopes))
	}
	return errs
}

// validateResources checks a rule's resources, subresources allowed.
func validateResources(resources []string, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(resources) == 0 {
		errs = append(errs, field.Required(path, ""))
	}
	wildSub, wildRes := map[string]bool{}, map[string]bool{} // x/*, */x
	double, single, plain := false, false, false
	for i, rs := range resources {
		if rs == "" {
			errs = append(errs, field.Required(path.Index(i), ""))
			continue
		}
		double = double || rs == "*/*"
		single = single || rs == "*"
		res, sub, ok := strings.Cut(rs, "/")
		if !ok {
			plain = rs != "*" // as the API server has it: the last plain entry decides
			continue
		}
		if wildSub[res] {
			errs = append(errs, field.Invalid(path.Index(i), rs, fmt.Sprintf("if '%s/*' is present, must not specify %s", res, rs)))
		}
		if wildRes[sub] {
			errs = append(errs, field.Invalid(path.Index(i), rs, fmt.Sprintf("if '*/%s' is present, must not specify %s", sub, rs)))
		}
		if sub == "*" {
			wildSub[res] = true
		}
		if res == "*" {
			wildRes[sub] = true
		}
	}
	if len(resources) > 1 && double {
		errs = append(errs, field.Invalid(path, resources, "if '*/*' is present, must not specify other resources"))
	}
	if single && plain {
		errs = append(errs, field.Invalid(path, resources, "if '*' is present, must not specify other resources without subresources"))
	}
	return errs
}

func validateMatchConditions(mcs []v1.MatchCondition, path *field.Path) field.ErrorList {
	var errs field.ErrorList
	if len(mcs) > 64 {
		errs = append(errs, field.TooMany(path, len(mcs), 64))
	}
	names := map[string]bool{}
	for i, mc := range mcs {
		mp := path.Index(i)
		if strings.TrimSpace(mc.Expression) == "" {
			errs = append(errs, field.Required(mp.Child("expression"), ""))
		}
		if mc.Name == "" {
			errs = append(errs, field.Required(mp.Child("name"), ""))
		} else {
			for _, msg := range validation.IsQualifiedName(mc.Name) {
				errs = append(errs, field.Invalid(mp.Child("name"), mc.Name, msg))
			}
			if names[mc.Name] {
				errs = append(errs, field.Duplicate(mp.Child("name"), mc.Name))
			}
			names[mc.Name] = true
		}
	}
	return errs
}

// validateBinding is the API server's validation of a new binding.
func validateBinding(b *v1.ValidatingAdmissionPolicyBinding) field.ErrorList {
	errs := validateMeta(&b.ObjectMeta)
	spec, path := &b.Spec, field.NewPath("spec")
	if spec.PolicyName == "" {
		errs = append(errs, field.Required(path.Child("policyName"), ""))
	} else {
		for _, msg := range apivalidation.NameIsDNSSubdomain(spec.PolicyName, false) {
			errs = append(errs, field.Invalid(path.Child("policyName"), spec.PolicyName, msg))
		}
	}
	errs = append(errs, validateParamRef(spec.ParamRef, path.Child("paramRef"))...)
	errs = append(errs, validateMatch(spec.MatchResources, path.Child("matchResources"))...)
	ap := path.Child("validationActions")
	seen := map[v1.ValidationAction]bool{}
	for i, a := range spec.ValidationActions {
		if !slices.Contains(actionsAllowed, string(a)) {
			errs = append(errs, field.NotSupported(ap.Index(i), a, actionsAllowed))
		}
		if seen[a] {
			errs = append(errs, field.Duplicate(ap.Index(i), a))
		}
		seen[a] = true
	}
	if seen[v1.Deny] && seen[v1.Warn] {
		errs = append(errs, field.Invalid(ap, spec.ValidationActions, "must not contain both Deny and Warn (repeating the same validation failure information in the API response and headers serves no purpose)"))
	}
	if len(seen) == 0 {
		errs = append(errs, field.Required(ap, "at least one validation action is required"))
	}
	return errs
}

func validateParamRef(r *v1.ParamRef, path *field.Path) field.ErrorList {
	if r == nil {
		return nil
	}
	var errs field.ErrorList
	if r.Name != "" {
		for _, msg := range content.IsPathSegmentName(r.Name) {
			errs = append(errs, field.Invalid(path.Child("name"), r.Name, msg))
		}
		if r.Selector != nil {
			errs = append(errs, field.Forbidden(path.Child("name"), `name and selector are mutually exclusive`))
		}
	}
	if r.Selector != nil {
		errs = append(errs, metav1validation.ValidateLabelSelector(r.Selector, metav1validation.LabelSelectorValidationOptions{}, path.Child("selector"))...)
		if r.Name != "" {
			errs = append(errs, field.Forbidden(path.Child("selector"), `name and selector are mutually exclusive`))
		}
	}
	if r.Name == "" && r.Selector == nil {
		errs = append(errs, field.Required(path, `one of name or selector must be specified`))
	}
	switch a := r.ParameterNotFoundAction; {
	case a == nil || *a == "":
		errs = append(errs, field.Required(path.Child("parameterNotFoundAction"), ""))
	case *a != v1.DenyAction && *a != v1.AllowAction:
		errs = append(errs, field.NotSupported(path.Child("parameterNotFoundAction"), a, []string{string(v1.DenyAction), string(v1.AllowAction)}))
	}
	return errs
}

var celIdent = regexp.MustCompile(`^[_a-zA-Z][_a-zA-Z0-9]*$`)

var celReserved = []string{"true", "false", "null", "in", "as", "break", "const", "continue", "else",
	"for", "function", "if", "import", "let", "loop", "package", "namespace", "return", "var", "void", "while"}

func isCELIdentifier(name string) bool {
	return celIdent.MatchString(name) && !slices.Contains(celReserved, name)
}

// generatedName is a name the API server could make of generateName: at
// most 58 of its characters and five random ones (here fixed ones, which
// validate as any would).
func generatedName(base string) string {
	if len(base) > 58 {
		base = base[:58]
	}
	return base + "x7k2q"
}
