package admissiondiff

import (
	"fmt"
	"strconv"
	"strings"

	"sigs.k8s.io/yaml"
)

// PolicyCase is one ValidatingAdmissionPolicy or binding of the policy
// object corpus: the API server either creates it or refuses it, and lint
// must say the same.
type PolicyCase struct {
	// Name says what the case changes ("policy/failurePolicy=Fial").
	Name string
	// Object is the policy or binding, named kpdiff-pNNN or kpdiff-bNNN
	// unless the case is about the name.
	Object map[string]any
}

// basePolicy is a valid policy using most of the spec: paramKind,
// matchConstraints with selectors and exclusions, matchConditions,
// variables, validations with message, messageExpression and reason,
// auditAnnotations.
const basePolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: NAME
  labels: {app.kubernetes.io/part-of: kpdiff}
spec:
  failurePolicy: Fail
  paramKind: {apiVersion: v1, kind: ConfigMap}
  matchConstraints:
    matchPolicy: Equivalent
    namespaceSelector:
      matchExpressions:
        - {key: env, operator: In, values: [prod, staging]}
    objectSelector: {matchLabels: {team: web}}
    resourceRules:
      - apiGroups: [apps]
        apiVersions: [v1]
        operations: [CREATE, UPDATE]
        resources: [deployments]
        scope: Namespaced
    excludeResourceRules:
      - apiGroups: [apps]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [deployments]
        resourceNames: [legacy]
  matchConditions:
    - name: not-kube-system
      expression: "object.metadata.namespace != 'kube-system'"
  variables:
    - name: limit
      expression: "int(params.data.maxReplicas)"
  validations:
    - expression: "object.spec.replicas <= variables.limit"
      message: too many replicas
      messageExpression: "'replicas ' + string(object.spec.replicas) + ' over ' + string(variables.limit)"
      reason: Invalid
  auditAnnotations:
    - key: replicas
      valueExpression: "string(object.spec.replicas)"
`

// baseBinding is a valid binding with a paramRef and matchResources.
const baseBinding = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: NAME
spec:
  policyName: kpdiff-policy
  validationActions: [Deny]
  paramRef: {name: limits, namespace: default, parameterNotFoundAction: Deny}
  matchResources:
    namespaceSelector: {matchLabels: {env: prod}}
    resourceRules:
      - apiGroups: [apps]
        apiVersions: [v1]
        operations: [CREATE]
        resources: [deployments]
`

// edit changes one field of an object: path is dotted with numeric
// indexes ("spec.validations.0.reason"); value del removes the field.
type edit struct {
	path  string
	value any
}

// del as an edit's value removes the field.
var del = struct{ deleted bool }{true}

type mutation struct {
	name  string
	edits []edit
}

func m(name string, edits ...edit) mutation { return mutation{name, edits} }

func set(path string, value any) edit { return edit{path, value} }

func remove(path string) edit { return edit{path, del} }

// many is n copies of item made by f(i).
func many(n int, f func(i int) any) []any {
	out := make([]any, n)
	for i := range out {
		out[i] = f(i)
	}
	return out
}

func policyMutations() []mutation {
	rule := "spec.matchConstraints.resourceRules.0."
	val := "spec.validations.0."
	return []mutation{
		m("valid"),
		m("failurePolicy defaulted", remove("spec.failurePolicy")),
		m("failurePolicy Ignore", set("spec.failurePolicy", "Ignore")),
		m("failurePolicy misspelt", set("spec.failurePolicy", "Fial")),
		m("failurePolicy lower case", set("spec.failurePolicy", "ignore")),
		m("failurePolicy a number", set("spec.failurePolicy", 1)),
		m("no paramKind, no params used", remove("spec.paramKind"), remove("spec.variables"), set(val+"expression", "object.spec.replicas <= 5"), set(val+"messageExpression", "'replicas ' + string(object.spec.replicas)")),
		m("params without paramKind", remove("spec.paramKind")),
		m("paramKind without apiVersion", remove("spec.paramKind.apiVersion")),
		m("paramKind without kind", remove("spec.paramKind.kind")),
		m("paramKind apiVersion with two slashes", set("spec.paramKind.apiVersion", "a/b/c")),
		m("paramKind apiVersion without version", set("spec.paramKind.apiVersion", "example.com/")),
		m("paramKind apiVersion bad group", set("spec.paramKind.apiVersion", "Example_com/v1")),
		m("paramKind kind bad", set("spec.paramKind.kind", "Config_Map")),
		m("paramKind unknown field", set("spec.paramKind.group", "")),
		m("no matchConstraints", remove("spec.matchConstraints")),
		m("no resourceRules", remove("spec.matchConstraints.resourceRules")),
		m("empty resourceRules", set("spec.matchConstraints.resourceRules", []any{})),
		m("matchPolicy Exact", set("spec.matchConstraints.matchPolicy", "Exact")),
		m("matchPolicy unknown", set("spec.matchConstraints.matchPolicy", "Fuzzy")),
		m("matchPolicy defaulted", remove("spec.matchConstraints.matchPolicy")),
		m("namespaceSelector bad operator", set("spec.matchConstraints.namespaceSelector.matchExpressions.0.operator", "Within")),
		m("namespaceSelector In without values", set("spec.matchConstraints.namespaceSelector.matchExpressions.0.values", []any{})),
		m("namespaceSelector bad label key", set("spec.matchConstraints.namespaceSelector.matchExpressions.0.key", "bad key!")),
		m("objectSelector bad label value", set("spec.matchConstraints.objectSelector.matchLabels.team", "not valid!")),
		m("objectSelector Exists with values", set("spec.matchConstraints.objectSelector", map[string]any{"matchExpressions": []any{map[string]any{"key": "team", "operator": "Exists", "values": []any{"web"}}}})),
		m("selectors empty", set("spec.matchConstraints.namespaceSelector", map[string]any{}), set("spec.matchConstraints.objectSelector", map[string]any{})),
		m("rule without operations", remove(rule+"operations")),
		m("rule operation unknown", set(rule+"operations", []any{"PATCH"})),
		m("rule operation wildcard and more", set(rule+"operations", []any{"*", "CREATE"})),
		m("rule operation wildcard", set(rule+"operations", []any{"*"})),
		m("rule operation lower case", set(rule+"operations", []any{"create"})),
		m("rule operations a string", set(rule+"operations", "CREATE")),
		m("rule without apiGroups", remove(rule+"apiGroups")),
		m("rule apiGroups wildcard and more", set(rule+"apiGroups", []any{"*", "apps"})),
		m("rule core apiGroup", set(rule+"apiGroups", []any{""}), set(rule+"resources", []any{"pods"})),
		m("rule without apiVersions", remove(rule+"apiVersions")),
		m("rule empty apiVersion", set(rule+"apiVersions", []any{""})),
		m("rule apiVersions wildcard and more", set(rule+"apiVersions", []any{"*", "v1"})),
		m("rule without resources", remove(rule+"resources")),
		m("rule empty resource", set(rule+"resources", []any{""})),
		m("rule resource wildcard and more", set(rule+"resources", []any{"*", "pods"})),
		m("rule resource double wildcard and more", set(rule+"resources", []any{"*/*", "pods"})),
		m("rule subresource wildcard and one", set(rule+"resources", []any{"pods/*", "pods/status"})),
		m("rule any resource's subresource and one", set(rule+"resources", []any{"*/status", "pods/status"})),
		m("rule subresource", set(rule+"resources", []any{"deployments/scale"})),
		m("rule wildcard and subresource", set(rule+"resources", []any{"*", "deployments/scale"})),
		m("rule scope unknown", set(rule+"scope", "Everywhere")),
		m("rule scope Cluster", set(rule+"scope", "Cluster")),
		m("rule scope defaulted", remove(rule+"scope")),
		m("rule resourceNames duplicate", set(rule+"resourceNames", []any{"web", "web"})),
		m("rule resourceName with slash", set(rule+"resourceNames", []any{"a/b"})),
		m("rule resourceName dot", set(rule+"resourceNames", []any{".."})),
		m("rule unknown field", set(rule+"resource", []any{"pods"})),
		m("excludeResourceRules without operations", remove("spec.matchConstraints.excludeResourceRules.0.operations")),
		m("excludeResourceRules bad scope", set("spec.matchConstraints.excludeResourceRules.0.scope", "Global")),
		m("matchConditions without name", remove("spec.matchConditions.0.name")),
		m("matchConditions bad name", set("spec.matchConditions.0.name", "not kube system")),
		m("matchConditions prefixed name", set("spec.matchConditions.0.name", "example.com/not-kube-system")),
		m("matchConditions duplicate name", set("spec.matchConditions", []any{
			map[string]any{"name": "a", "expression": "true"}, map[string]any{"name": "a", "expression": "true"}})),
		m("matchConditions empty expression", set("spec.matchConditions.0.expression", "  ")),
		m("matchConditions syntax error", set("spec.matchConditions.0.expression", "object.metadata.namespace !=")),
		m("matchConditions not a bool", set("spec.matchConditions.0.expression", "object.metadata.namespace")),
		m("matchConditions reads params", set("spec.matchConditions.0.expression", "params.data.enabled == 'true'")),
		m("matchConditions reads authorizer", set("spec.matchConditions.0.expression", "authorizer.group('').resource('pods').check('get').allowed()")),
		m("matchConditions 65", set("spec.matchConditions", many(65, func(i int) any {
			return map[string]any{"name": "c" + strconv.Itoa(i), "expression": "true"}
		}))),
		m("matchConditions 64", set("spec.matchConditions", many(64, func(i int) any {
			return map[string]any{"name": "c" + strconv.Itoa(i), "expression": "true"}
		}))),
		m("variable without name", remove("spec.variables.0.name")),
		m("variable name not an identifier", set("spec.variables.0.name", "1limit")),
		m("variable name reserved", set("spec.variables.0.name", "namespace")),
		m("variable empty expression", set("spec.variables.0.expression", "")),
		m("variable syntax error", set("spec.variables.0.expression", "int(params.data.maxReplicas")),
		m("variable undeclared reference", set("spec.variables.0.expression", "int(parms.data.maxReplicas)")),
		m("validations and auditAnnotations missing", remove("spec.validations"), remove("spec.auditAnnotations")),
		m("only auditAnnotations", remove("spec.validations")),
		m("only validations", remove("spec.auditAnnotations")),
		m("validation empty expression", set(val+"expression", " ")),
		m("validation syntax error", set(val+"expression", "object.spec.replicas <=")),
		m("validation not a bool", set(val+"expression", "object.spec.replicas")),
		m("validation unknown variable", set(val+"expression", "object.spec.replicas <= variables.limits")),
		m("validation unknown function", set(val+"expression", "object.spec.replicas.isPositive()")),
		m("validation expression a bool", set(val+"expression", true)),
		m("validation reads request.userInfo", set(val+"expression", "request.userInfo.username != ''")),
		m("validation message blank", set(val+"message", "   ")),
		m("validation message with a line break", set(val+"message", "too many\nreplicas")),
		m("validation message with a trailing line break", set(val+"message", "too many replicas\n")),
		m("validation messageExpression blank", set(val+"messageExpression", "  ")),
		m("validation messageExpression syntax error", set(val+"messageExpression", "'replicas ' +")),
		m("validation messageExpression not a string", set(val+"messageExpression", "object.spec.replicas")),
		m("validation messageExpression reads authorizer", set(val+"messageExpression", "string(authorizer.group('').resource('pods').check('get').allowed())")),
		m("validation reason Forbidden", set(val+"reason", "Forbidden")),
		m("validation reason RequestEntityTooLarge", set(val+"reason", "RequestEntityTooLarge")),
		m("validation reason unknown", set(val+"reason", "Teapot")),
		m("validation fieldPath (a CRD rule's field)", set(val+"fieldPath", "spec.replicas")),
		m("validation unknown field", set(val+"expresion", "true")),
		m("validations a string", set("spec.validations", "object.spec.replicas <= 5")),
		m("auditAnnotation bad key", set("spec.auditAnnotations.0.key", "bad key!")),
		m("auditAnnotation key too long", set("spec.auditAnnotations.0.key", strings.Repeat("k", 64))),
		m("auditAnnotation duplicate key", set("spec.auditAnnotations", []any{
			map[string]any{"key": "a", "valueExpression": "'x'"}, map[string]any{"key": "a", "valueExpression": "'y'"}})),
		m("auditAnnotation empty valueExpression", set("spec.auditAnnotations.0.valueExpression", "")),
		m("auditAnnotation valueExpression syntax error", set("spec.auditAnnotations.0.valueExpression", "string(")),
		m("auditAnnotation valueExpression not a string", set("spec.auditAnnotations.0.valueExpression", "object.spec.replicas")),
		m("auditAnnotations 21", set("spec.auditAnnotations", many(21, func(i int) any {
			return map[string]any{"key": "k" + strconv.Itoa(i), "valueExpression": "'v'"}
		}))),
		m("unknown field in spec", set("spec.failurePolicyy", "Fail")),
		m("unknown field case", set("spec.FailurePolicy", "Fail")),
		m("unknown top-level field", set("specs", map[string]any{})),
		m("unknown field in metadata", set("metadata.namespce", "default")),
		m("namespace on a cluster-scoped object", set("metadata.namespace", "default")),
		m("status set", set("status", map[string]any{"observedGeneration": 3})),
		m("name reserved suffix", set("metadata.name", "kpdiff-policy.static.k8s.io")),
		m("name static prefix", set("metadata.name", "static.k8s.io.kpdiff")),
		m("name not a subdomain", set("metadata.name", "KPdiff_Policy")),
		m("name too long", set("metadata.name", "kpdiff-"+strings.Repeat("a", 250))),
		m("name missing", remove("metadata.name")),
		m("name from generateName", remove("metadata.name"), set("metadata.generateName", "kpdiff-")),
		m("label key bad", set("metadata.labels", map[string]any{"bad key!": "x"})),
		m("label value bad", set("metadata.labels", map[string]any{"app": "not valid!"})),
		m("annotation key bad", set("metadata.annotations", map[string]any{"bad key!": "x"})),
		m("labels a list", set("metadata.labels", []any{"a"})),
	}
}

func bindingMutations() []mutation {
	return []mutation{
		m("valid"),
		m("no policyName", remove("spec.policyName")),
		m("policyName not a subdomain", set("spec.policyName", "Not_A_Policy")),
		m("policyName unknown field case", remove("spec.policyName"), set("spec.policyname", "kpdiff-policy")),
		m("no validationActions", remove("spec.validationActions")),
		m("empty validationActions", set("spec.validationActions", []any{})),
		m("validationActions Deny and Warn", set("spec.validationActions", []any{"Deny", "Warn"})),
		m("validationActions Warn and Audit", set("spec.validationActions", []any{"Warn", "Audit"})),
		m("validationActions duplicate", set("spec.validationActions", []any{"Deny", "Deny"})),
		m("validationActions unknown", set("spec.validationActions", []any{"Block"})),
		m("validationActions lower case", set("spec.validationActions", []any{"deny"})),
		m("validationActions a string", set("spec.validationActions", "Deny")),
		m("no paramRef", remove("spec.paramRef")),
		m("paramRef without parameterNotFoundAction", remove("spec.paramRef.parameterNotFoundAction")),
		m("paramRef parameterNotFoundAction Allow", set("spec.paramRef.parameterNotFoundAction", "Allow")),
		m("paramRef parameterNotFoundAction unknown", set("spec.paramRef.parameterNotFoundAction", "Ignore")),
		m("paramRef parameterNotFoundAction empty", set("spec.paramRef.parameterNotFoundAction", "")),
		m("paramRef without namespace", remove("spec.paramRef.namespace")),
		m("paramRef namespace misspelt", remove("spec.paramRef.namespace"), set("spec.paramRef.namspace", "default")),
		m("paramRef namespace a number", set("spec.paramRef.namespace", 7)),
		m("paramRef name and selector", set("spec.paramRef.selector", map[string]any{"matchLabels": map[string]any{"a": "b"}})),
		m("paramRef neither name nor selector", remove("spec.paramRef.name")),
		m("paramRef selector", remove("spec.paramRef.name"), set("spec.paramRef.selector", map[string]any{"matchLabels": map[string]any{"limits": "true"}})),
		m("paramRef empty selector", remove("spec.paramRef.name"), set("spec.paramRef.selector", map[string]any{})),
		m("paramRef selector bad operator", remove("spec.paramRef.name"), set("spec.paramRef.selector", map[string]any{"matchExpressions": []any{map[string]any{"key": "a", "operator": "Equals", "values": []any{"b"}}}})),
		m("paramRef name with slash", set("spec.paramRef.name", "a/b")),
		m("paramRef name dot dot", set("spec.paramRef.name", "..")),
		m("paramRef name with percent", set("spec.paramRef.name", "limits%2F")),
		m("paramRef empty", set("spec.paramRef", map[string]any{})),
		m("no matchResources", remove("spec.matchResources")),
		m("empty matchResources", set("spec.matchResources", map[string]any{})),
		m("matchResources rule without apiVersions", remove("spec.matchResources.resourceRules.0.apiVersions")),
		m("matchResources rule with wildcard", set("spec.matchResources.resourceRules.0.resources", []any{"*"})),
		m("matchResources matchPolicy unknown", set("spec.matchResources.matchPolicy", "Loose")),
		m("matchResources namespaceSelector bad", set("spec.matchResources.namespaceSelector.matchLabels", map[string]any{"env": "prod stage"})),
		m("matchResources excludeResourceRules bad operation", set("spec.matchResources.excludeResourceRules", []any{map[string]any{
			"apiGroups": []any{"apps"}, "apiVersions": []any{"v1"}, "operations": []any{"DELETE", "PURGE"}, "resources": []any{"deployments"}}})),
		m("matchResources unknown field", set("spec.matchResources.namespaceSelectors", map[string]any{})),
		m("name reserved suffix", set("metadata.name", "kpdiff-binding.static.k8s.io")),
		m("name not a subdomain", set("metadata.name", "Binding!")),
		m("unknown field in spec", set("spec.paramRefs", map[string]any{})),
		m("spec a list", set("spec", []any{})),
	}
}

// PolicyObjects generates the corpus: every mutation of the base policy
// and of the base binding, in a fixed order (the same every run).
func PolicyObjects() ([]PolicyCase, error) {
	var out []PolicyCase
	for _, g := range []struct {
		kind, base, prefix string
		muts               []mutation
	}{
		{"policy", basePolicy, "kpdiff-p", policyMutations()},
		{"binding", baseBinding, "kpdiff-b", bindingMutations()},
	} {
		for i, mu := range g.muts {
			var obj map[string]any
			if err := yaml.Unmarshal([]byte(strings.Replace(g.base, "NAME", fmt.Sprintf("%s%03d", g.prefix, i), 1)), &obj); err != nil {
				return nil, err
			}
			for _, e := range mu.edits {
				if err := apply(obj, strings.Split(e.path, "."), e.value); err != nil {
					return nil, fmt.Errorf("%s %q: %w", g.kind, mu.name, err)
				}
			}
			out = append(out, PolicyCase{Name: g.kind + "/" + mu.name, Object: obj})
		}
	}
	return out, nil
}

// apply sets (or with del removes) the field at path of obj, making the
// maps on the way.
func apply(obj any, path []string, value any) error {
	key := path[0]
	last := len(path) == 1
	switch c := obj.(type) {
	case map[string]any:
		if last {
			if value == del {
				if _, ok := c[key]; !ok {
					return fmt.Errorf("no field %s to remove", key)
				}
				delete(c, key)
			} else {
				c[key] = value
			}
			return nil
		}
		next, ok := c[key]
		if !ok {
			next = map[string]any{}
			c[key] = next
		}
		return apply(next, path[1:], value)
	case []any:
		i, err := strconv.Atoi(key)
		if err != nil || i < 0 || i >= len(c) {
			return fmt.Errorf("no index %s", key)
		}
		if last {
			if value == del {
				return fmt.Errorf("cannot remove index %s", key)
			}
			c[i] = value
			return nil
		}
		return apply(c[i], path[1:], value)
	}
	return fmt.Errorf("cannot descend into %T at %s", obj, key)
}
