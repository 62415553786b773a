package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// limitsCRD defines the cluster-scoped kind Limits (example.com/v1) that
// the policies below take their parameters from.
const limitsCRD = `apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata:
  name: limits.example.com
spec:
  group: example.com
  scope: Cluster
  names: {plural: limits, singular: limits, kind: Limits, listKind: LimitsList}
  versions:
    - name: v1
      served: true
      storage: true
      schema:
        openAPIV3Schema:
          type: object
          properties:
            spec:
              type: object
              properties:
                maxReplicas: {type: integer}
`

// limitsPolicy denies more replicas than the Limits named "global" allow;
// its binding's paramRef has no namespace: a cluster-scoped param is
// found by name whatever the object's namespace.
const limitsPolicy = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: max-replicas
spec:
  paramKind: {apiVersion: example.com/v1, kind: Limits}
  matchConstraints:
    resourceRules:
      - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
  validations:
    - expression: "object.spec.replicas <= params.spec.maxReplicas"
      message: too many replicas
---
apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicyBinding
metadata:
  name: max-replicas
spec:
  policyName: max-replicas
  validationActions: [Deny]
  paramRef: {name: global, parameterNotFoundAction: Deny}
`

const limitsParam = `apiVersion: example.com/v1
kind: Limits
metadata:
  name: global
spec:
  maxReplicas: 2
`

// bigDeployment has no namespace, and lint is given none.
const bigDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: big
spec:
  replicas: 5
  selector: {matchLabels: {app: big}}
  template:
    metadata: {labels: {app: big}}
    spec:
      containers:
        - name: app
          image: registry.example.com/app:1.0
          resources: {limits: {cpu: 100m, memory: 64Mi}, requests: {cpu: 100m, memory: 64Mi}}
`

func policyTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// findingsOf lists the findings of rules as "file:line:col severity rule:
// message", file relative to dir.
func findingsOf(rep Report, dir string, rules ...string) []string {
	var out []string
	for _, f := range rep.Findings {
		for _, r := range rules {
			if f.Rule == r {
				out = append(out, fmt.Sprintf("%s:%d:%d %s %s: %s", strings.TrimPrefix(f.File, dir+"/"), f.Line, f.Col, f.Severity, f.Rule, f.Message))
			}
		}
	}
	return out
}

// One pool of CRDs: a paramKind defined by a CRD of the linted set, of
// --crds or of --policies is known, and a CRD of --policies validates the
// param objects of the set. The param is cluster-scoped and the paramRef
// has no namespace: the Deployment without a namespace is judged (denied),
// not "not evaluable".
func TestPolicyParamKindsFromEveryCRDSource(t *testing.T) {
	for _, c := range []struct {
		name  string
		files map[string]string
		in    func(dir string) Input
	}{
		{"CRD in the linted set", map[string]string{"set/crd.yaml": limitsCRD, "set/policy.yaml": limitsPolicy, "set/param.yaml": limitsParam, "set/deploy.yaml": bigDeployment},
			func(dir string) Input { return Input{Paths: []string{dir + "/set"}} }},
		{"CRD in --crds", map[string]string{"crds/crd.yaml": limitsCRD, "set/policy.yaml": limitsPolicy, "set/param.yaml": limitsParam, "set/deploy.yaml": bigDeployment},
			func(dir string) Input { return Input{Paths: []string{dir + "/set"}, CRDPaths: []string{dir + "/crds"}} }},
		{"CRD and policy in --policies, param in the set", map[string]string{"pol/crd.yaml": limitsCRD, "pol/policy.yaml": limitsPolicy, "set/param.yaml": limitsParam, "set/deploy.yaml": bigDeployment},
			func(dir string) Input {
				return Input{Paths: []string{dir + "/set"}, PolicyPaths: []string{dir + "/pol"}}
			}},
		{"everything in --policies", map[string]string{"pol/crd.yaml": limitsCRD, "pol/policy.yaml": limitsPolicy, "pol/param.yaml": limitsParam, "set/deploy.yaml": bigDeployment},
			func(dir string) Input {
				return Input{Paths: []string{dir + "/set"}, PolicyPaths: []string{dir + "/pol"}}
			}},
	} {
		for _, keep := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s/keep=%v", c.name, keep), func(t *testing.T) {
				dir := policyTree(t, c.files)
				in := c.in(dir)
				in.KeepObjects = keep
				rep, _, err := Check(in, Options{})
				if err != nil {
					t.Fatal(err)
				}
				got := findingsOf(rep, dir, "admission-policy", "missing-schema", "schema", "crd-schema")
				want := "set/deploy.yaml:1:1 error admission-policy: denied by ValidatingAdmissionPolicy max-replicas"
				if len(got) != 1 || !strings.HasPrefix(got[0], want) || !strings.Contains(got[0], "too many replicas") {
					t.Errorf("got %q\nwant one finding %q...", got, want)
				}
			})
		}
	}
}

// A CRD of --policies validates the param objects of the linted set: a
// param with a field of the wrong type is a schema error, not a
// missing-schema one.
func TestPolicyCRDsValidateParams(t *testing.T) {
	dir := policyTree(t, map[string]string{"pol/crd.yaml": limitsCRD, "pol/policy.yaml": limitsPolicy,
		"set/param.yaml": strings.Replace(limitsParam, "maxReplicas: 2", `maxReplicas: "two"`, 1)})
	rep, _, err := Check(Input{Paths: []string{dir + "/set"}, PolicyPaths: []string{dir + "/pol"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := findingsOf(rep, dir, "missing-schema", "crd-schema")
	if len(got) != 1 || !strings.HasPrefix(got[0], `set/param.yaml:6:16 error crd-schema: spec.maxReplicas must be an integer, not the string "two"`) {
		t.Errorf("got %q, want one schema error at set/param.yaml:6:16", got)
	}
}

// A policy or binding the API server would refuse is an error at the
// field, and takes no part: the Deployment the policy would deny is not
// denied, and a binding of a refused policy says it is not evaluated.
func TestRefusedPoliciesTakeNoPart(t *testing.T) {
	unknownField := strings.Replace(limitsPolicy, "paramRef: {name: global,", "paramRef: {name: global, namspace: default,", 1)
	noAction := strings.Replace(limitsPolicy, ", parameterNotFoundAction: Deny}", "}", 1)
	reserved := strings.Replace(strings.ReplaceAll(limitsPolicy, "max-replicas", "max-replicas.static.k8s.io"), "name: max-replicas.static.k8s.io\nspec:\n  policyName", "name: max-replicas\nspec:\n  policyName", 1)
	badCEL := strings.Replace(limitsPolicy, "<= params.spec.maxReplicas", "<= params.spec.maxReplicas +", 1)
	for _, c := range []struct {
		name, policy string
		want         []string
	}{
		{"unknown field in the binding", unknownField, []string{
			`pol/policy.yaml:21:28 error admission-policy: ValidatingAdmissionPolicyBinding max-replicas is refused by the API server: unknown field "spec.paramRef.namspace"`}},
		{"binding without parameterNotFoundAction", noAction, []string{
			`pol/policy.yaml:21:3 error admission-policy: ValidatingAdmissionPolicyBinding max-replicas is refused by the API server: spec.paramRef.parameterNotFoundAction: Required value`}},
		{"reserved name", reserved, []string{
			`pol/policy.yaml:4:9 error admission-policy: ValidatingAdmissionPolicy max-replicas.static.k8s.io is refused by the API server: metadata.name: Invalid value: "max-replicas.static.k8s.io": names ending with ".static.k8s.io" are reserved`,
			`pol/policy.yaml:14:1 info admission-policy: ValidatingAdmissionPolicyBinding max-replicas is not evaluated: it binds ValidatingAdmissionPolicy max-replicas.static.k8s.io, which the API server refuses (`}},
		{"expression that does not compile", badCEL, []string{
			`pol/policy.yaml:11:69 error admission-policy: ValidatingAdmissionPolicy max-replicas: spec.validations[0].expression does not compile:`,
			`pol/policy.yaml:14:1 info admission-policy: ValidatingAdmissionPolicyBinding max-replicas is not evaluated: it binds ValidatingAdmissionPolicy max-replicas, which the API server refuses (`}},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := policyTree(t, map[string]string{"pol/crd.yaml": limitsCRD, "pol/policy.yaml": c.policy, "pol/param.yaml": limitsParam, "set/deploy.yaml": bigDeployment})
			rep, _, err := Check(Input{Paths: []string{dir + "/set"}, PolicyPaths: []string{dir + "/pol"}}, Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := findingsOf(rep, dir, "admission-policy", "schema")
			if len(got) != len(c.want) {
				t.Fatalf("got %d findings, want %d:\n%s", len(got), len(c.want), strings.Join(got, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], c.want[i]) {
					t.Errorf("finding %d:\n got %s\nwant %s...", i, got[i], c.want[i])
				}
			}
		})
	}
}

// In the linted set, lint's schema rule reports an unknown field of a
// binding once; admission keeps the binding out without saying it again.
func TestRefusedBindingInTheSetReportedOnce(t *testing.T) {
	unknownField := strings.Replace(limitsPolicy, "paramRef: {name: global,", "paramRef: {name: global, namspace: default,", 1)
	dir := policyTree(t, map[string]string{"set/crd.yaml": limitsCRD, "set/policy.yaml": unknownField, "set/param.yaml": limitsParam, "set/deploy.yaml": bigDeployment})
	rep, _, err := Check(Input{Paths: []string{dir + "/set"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := findingsOf(rep, dir, "admission-policy", "schema")
	if len(got) != 1 || !strings.HasPrefix(got[0], `set/policy.yaml:21:28 error schema: unknown field "spec.paramRef.namspace" (did you mean "namespace"?)`) {
		t.Errorf("got %q", got)
	}
}

// The parameter objects of --policies are checked too: against their CRD
// (in --policies or --crds) and the built-in schemas. One whose CRD is
// nowhere is left alone (it may be on the cluster only).
func TestPolicyParamsInPoliciesChecked(t *testing.T) {
	badCM := "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: limits\n  namespace: default\ndata:\n  maxReplicas: 2\n"
	badLimits := strings.Replace(limitsParam, "maxReplicas: 2", `maxReplicas: "two"`, 1)
	orphan := "apiVersion: example.org/v1\nkind: Quota\nmetadata:\n  name: q\nspec:\n  x: 1\n"
	dir := policyTree(t, map[string]string{"pol/crd.yaml": limitsCRD, "pol/policy.yaml": limitsPolicy, "pol/param.yaml": badLimits,
		"pol/cm.yaml": badCM, "pol/orphan.yaml": orphan, "set/deploy.yaml": bigDeployment})
	rep, _, err := Check(Input{Paths: []string{dir + "/set"}, PolicyPaths: []string{dir + "/pol"}}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := findingsOf(rep, dir, "schema", "crd-schema", "missing-schema")
	want := []string{
		`pol/cm.yaml:7:16 error schema: data.maxReplicas must be a string`,
		`pol/param.yaml:6:16 error crd-schema: spec.maxReplicas must be an integer, not the string "two"`,
	}
	if len(got) != len(want) {
		t.Fatalf("got %q, want %q", got, want)
	}
	for i := range want {
		if !strings.HasPrefix(got[i], want[i]) {
			t.Errorf("got %s\nwant %s...", got[i], want[i])
		}
	}
}
