package lint

import (
	"strings"

	"github.com/kubeplan/kubeplan/lint/semantic"
	"github.com/kubeplan/kubeplan/manifest"
)

// ruleInvalidValue is the rule of the semantic checks (semantic.Rule).
const ruleInvalidValue = semantic.Rule

// semanticFindings adds to a built-in object's schema findings what
// semantic.Check finds, at each violation's line:col, after dropping the
// schema's findings about a required field the server does not require
// (see relaxedRequired).
func semanticFindings(o *manifest.Object, schemaFindings []Finding) []Finding {
	violations := semantic.Check(o)
	out := schemaFindings[:0:0]
	for _, f := range schemaFindings {
		if !relaxedRequired(o, f) {
			out = append(out, f)
		}
	}
	for _, v := range violations {
		out = append(out, violationFinding(o, v))
	}
	return out
}

// violationFinding is the finding of one semantic violation: an error, or
// a warning when the violation says so, on the value at its path or on
// the key.
func violationFinding(o *manifest.Object, v semantic.Violation) Finding {
	sev := Error
	if v.Warning {
		sev = Warning
	}
	f := objectFinding(o, v.Path, sev, semantic.Rule, v.Message)
	if v.AtKey {
		pos := o.KeyPos(v.Path...)
		f.Line, f.Col, f.EndLine, f.EndCol = pos.Line, pos.Col, 0, 0
	}
	return f
}

// relaxedRequired reports a schema finding about a field the OpenAPI
// schema lists as required but the API server accepts missing: an HTTP
// header's value, and the claimName of a StatefulSet's volume named as one
// of its volumeClaimTemplates (the claim replaces that volume).
func relaxedRequired(o *manifest.Object, f Finding) bool {
	if f.Rule != "schema" || !strings.Contains(f.Message, "missing required field") {
		return false
	}
	if strings.Contains(f.Message, `"value"`) && strings.Contains(f.Field, ".httpHeaders[") {
		return true
	}
	const vols = "spec.template.spec.volumes["
	if o.Group() != "apps" || o.Kind != "StatefulSet" || !strings.Contains(f.Message, `"claimName"`) || !strings.HasPrefix(f.Field, vols) {
		return false
	}
	i, _, _ := strings.Cut(strings.TrimPrefix(f.Field, vols), "]")
	name, _ := o.Get("spec", "template", "spec", "volumes", i, "name")
	claims, _ := o.Get("spec", "volumeClaimTemplates")
	list, _ := claims.([]any)
	for _, c := range list {
		m, _ := c.(map[string]any)
		meta, _ := m["metadata"].(map[string]any)
		if n, ok := meta["name"].(string); ok && n != "" && n == name {
			return true
		}
	}
	return false
}
