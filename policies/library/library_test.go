package library

import (
	"encoding/json"
	"fmt"
	"slices"
	"testing"

	admissionv1 "k8s.io/api/admissionregistration/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

// workloads are the resources every library policy matches: Pods and the
// pod templates of the workload controllers.
var workloads = map[string][]string{
	"":      {"pods"},
	"apps":  {"deployments", "statefulsets", "daemonsets", "replicasets"},
	"batch": {"jobs", "cronjobs"},
}

// longRunningOnly are the policies that leave run-to-completion workloads
// (Jobs, CronJobs) out on purpose.
var longRunningOnly = map[string]bool{"require-probes": true}

// decodeStrict turns o into T, failing on a field T does not have (a typo
// such as validationAction would otherwise be dropped silently).
func decodeStrict[T any](o *unstructured.Unstructured) (*T, error) {
	data, err := json.Marshal(o.Object)
	if err != nil {
		return nil, err
	}
	out := new(T)
	if err := yaml.UnmarshalStrict(data, out); err != nil {
		return nil, err
	}
	return out, nil
}

// TestPolicyFilesHoldValidPolicies decodes every object of each directory's
// policy files into the admissionregistration.k8s.io/v1 types and checks what
// the library promises: one Deny binding per policy, the workloads matched,
// a message for every validation, params that exist.
func TestPolicyFilesHoldValidPolicies(t *testing.T) {
	for _, dir := range dirs(t) {
		t.Run(dir, func(t *testing.T) {
			s, err := load(dir)
			if err != nil {
				t.Fatal(err)
			}
			vaps := s.ofKind("ValidatingAdmissionPolicy")
			if len(vaps) == 0 {
				t.Fatal("no ValidatingAdmissionPolicy in the policy files")
			}
			bindings := map[string][]*admissionv1.ValidatingAdmissionPolicyBinding{}
			for _, o := range s.ofKind("ValidatingAdmissionPolicyBinding") {
				if o.GetAPIVersion() != "admissionregistration.k8s.io/v1" {
					t.Errorf("binding %s: apiVersion %s, want admissionregistration.k8s.io/v1", o.GetName(), o.GetAPIVersion())
				}
				b, err := decodeStrict[admissionv1.ValidatingAdmissionPolicyBinding](o)
				if err != nil {
					t.Errorf("binding %s: %v", o.GetName(), err)
					continue
				}
				if !slices.Equal(b.Spec.ValidationActions, []admissionv1.ValidationAction{admissionv1.Deny}) {
					t.Errorf("binding %s: validationActions %v, want [Deny]", b.Name, b.Spec.ValidationActions)
				}
				bindings[b.Spec.PolicyName] = append(bindings[b.Spec.PolicyName], b)
			}
			names := map[string]bool{}
			for _, o := range vaps {
				if o.GetAPIVersion() != "admissionregistration.k8s.io/v1" {
					t.Errorf("policy %s: apiVersion %s, want admissionregistration.k8s.io/v1", o.GetName(), o.GetAPIVersion())
				}
				p, err := decodeStrict[admissionv1.ValidatingAdmissionPolicy](o)
				if err != nil {
					t.Errorf("policy %s: %v", o.GetName(), err)
					continue
				}
				names[p.Name] = true
				if p.Name != dir {
					t.Errorf("policy %s lives in directory %s: name the directory after the policy", p.Name, dir)
				}
				checkPolicy(t, s, p, bindings[p.Name])
			}
			for name := range bindings {
				if !names[name] {
					t.Errorf("a binding names policy %s, which is not in the policy files", name)
				}
			}
		})
	}
}

// checkPolicy checks one policy and its bindings.
func checkPolicy(t *testing.T, s *suite, p *admissionv1.ValidatingAdmissionPolicy, bindings []*admissionv1.ValidatingAdmissionPolicyBinding) {
	t.Helper()
	if len(bindings) != 1 {
		t.Errorf("policy %s has %d bindings, want 1", p.Name, len(bindings))
	}
	if p.Spec.FailurePolicy == nil || *p.Spec.FailurePolicy != admissionv1.Fail {
		t.Errorf("policy %s: failurePolicy must be Fail (a policy that cannot be evaluated must not admit)", p.Name)
	}
	if p.Spec.MatchConstraints == nil {
		t.Fatalf("policy %s: no matchConstraints", p.Name)
	}
	matched := map[string]bool{}
	for _, r := range p.Spec.MatchConstraints.ResourceRules {
		if len(r.Operations) == 0 || len(r.Resources) == 0 || len(r.APIGroups) == 0 || len(r.APIVersions) == 0 {
			t.Errorf("policy %s: a resourceRule without operations, resources, apiGroups or apiVersions: %+v", p.Name, r)
		}
		if !slices.Contains(r.Operations, admissionv1.Create) || !slices.Contains(r.Operations, admissionv1.Update) {
			t.Errorf("policy %s: resourceRule %v must check CREATE and UPDATE", p.Name, r.Resources)
		}
		for _, g := range r.APIGroups {
			for _, res := range r.Resources {
				matched[g+"/"+res] = true
			}
		}
	}
	for g, resources := range workloads {
		for _, res := range resources {
			if g == "batch" && longRunningOnly[p.Name] {
				if matched[g+"/"+res] {
					t.Errorf("policy %s is for long-running workloads but matches %s", p.Name, res)
				}
				continue
			}
			if !matched[g+"/"+res] {
				t.Errorf("policy %s does not match %s (group %q)", p.Name, res, g)
			}
		}
	}
	if len(p.Spec.Validations) == 0 {
		t.Errorf("policy %s has no validations", p.Name)
	}
	for i, v := range p.Spec.Validations {
		if v.Expression == "" || v.Message == "" || v.MessageExpression == "" {
			t.Errorf("policy %s: validation %d needs an expression, a message and a messageExpression naming the container", p.Name, i)
		}
	}
	seen := map[string]bool{}
	for _, v := range p.Spec.Variables {
		if v.Name == "" || v.Expression == "" || seen[v.Name] {
			t.Errorf("policy %s: variable %q is unnamed, empty or defined twice", p.Name, v.Name)
		}
		seen[v.Name] = true
	}
	if p.Spec.ParamKind == nil {
		for _, b := range bindings {
			if b.Spec.ParamRef != nil {
				t.Errorf("binding %s has a paramRef, but policy %s has no paramKind", b.Name, p.Name)
			}
		}
		return
	}
	for _, b := range bindings {
		ref := b.Spec.ParamRef
		if ref == nil || ref.Name == "" {
			t.Errorf("binding %s: policy %s has a paramKind, so the binding needs a paramRef with a name", b.Name, p.Name)
			continue
		}
		if ref.ParameterNotFoundAction == nil || *ref.ParameterNotFoundAction != admissionv1.DenyAction {
			t.Errorf("binding %s: paramRef.parameterNotFoundAction must be Deny", b.Name)
		}
		if err := findParam(s, p.Spec.ParamKind, ref); err != nil {
			t.Errorf("binding %s: %v", b.Name, err)
		}
	}
}

// findParam checks that the policy files hold the object ref names.
func findParam(s *suite, kind *admissionv1.ParamKind, ref *admissionv1.ParamRef) error {
	for _, o := range s.policies {
		if o.GetAPIVersion() == kind.APIVersion && o.GetKind() == kind.Kind && o.GetName() == ref.Name && o.GetNamespace() == ref.Namespace {
			return nil
		}
	}
	return fmt.Errorf("paramRef names %s %s %s/%s, which is not in the policy files", kind.APIVersion, kind.Kind, ref.Namespace, ref.Name)
}

// TestResultsCoverEveryResource keeps the fixtures complete: every resource
// has a verdict under every policy of its directory, every verdict names a
// resource, policy and binding that exist, and every fail carries the
// server's message.
func TestResultsCoverEveryResource(t *testing.T) {
	for _, dir := range dirs(t) {
		t.Run(dir, func(t *testing.T) {
			s, err := load(dir)
			if err != nil {
				t.Fatal(err)
			}
			binds := map[string]string{} // binding -> policy
			for _, o := range s.ofKind("ValidatingAdmissionPolicyBinding") {
				policy, _, _ := unstructured.NestedString(o.Object, "spec", "policyName")
				binds[o.GetName()] = policy
			}
			policies := map[string]bool{}
			for _, o := range s.ofKind("ValidatingAdmissionPolicy") {
				policies[o.GetName()] = true
			}
			keys := map[string]bool{}
			for _, o := range s.resources {
				if keys[key(o)] {
					t.Errorf("resource %s is defined twice", key(o))
				}
				keys[key(o)] = true
			}
			verdicts := map[[2]string]string{}
			counts := map[string]map[string]int{}
			for _, r := range s.test.Results {
				switch {
				case !policies[r.Policy]:
					t.Errorf("%s: policy %q is not in the policy files", r.Resource, r.Policy)
				case r.Binding != "" && binds[r.Binding] != r.Policy:
					t.Errorf("%s: binding %q does not bind policy %s", r.Resource, r.Binding, r.Policy)
				case !keys[r.Resource]:
					t.Errorf("results name %s, which is not in the resource files", r.Resource)
				case r.Result != "pass" && r.Result != "fail" && r.Result != "skip":
					t.Errorf("%s: result %q, want pass, fail or skip", r.Resource, r.Result)
				case r.Result == "fail" && r.Message == "":
					t.Errorf("%s: a fail needs the message the API server gives", r.Resource)
				case r.Result != "fail" && r.Message != "":
					t.Errorf("%s: only a fail has a message", r.Resource)
				}
				k := [2]string{r.Policy, r.Resource}
				if _, dup := verdicts[k]; dup {
					t.Errorf("%s has two verdicts under %s", r.Resource, r.Policy)
				}
				verdicts[k] = r.Result
				if counts[r.Policy] == nil {
					counts[r.Policy] = map[string]int{}
				}
				counts[r.Policy][r.Result]++
			}
			for p := range policies {
				for _, o := range s.resources {
					if _, ok := verdicts[[2]string{p, key(o)}]; !ok {
						t.Errorf("%s has no verdict under policy %s: add a results entry", key(o), p)
					}
				}
				if c := counts[p]; c["pass"] < 2 || c["fail"] < 2 || c["skip"] < 1 {
					t.Errorf("policy %s: %d pass, %d fail, %d skip; want at least 2, 2 and 1", p, c["pass"], c["fail"], c["skip"])
				}
			}
		})
	}
}
