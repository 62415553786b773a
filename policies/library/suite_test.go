package library

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"sort"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// policyTest is a kubeplan-test.yaml: the files of a library directory and
// the verdict expected for each resource under each policy.
type policyTest struct {
	APIVersion string   `json:"apiVersion"`
	Kind       string   `json:"kind"`
	Policies   []string `json:"policies"`
	Resources  []string `json:"resources"`
	Results    []result `json:"results"`
}

// result is one expected verdict.
type result struct {
	Policy   string `json:"policy"`
	Binding  string `json:"binding,omitempty"`
	Resource string `json:"resource"`
	Result   string `json:"result"`
	Message  string `json:"message,omitempty"`
}

// suite is a library directory, loaded.
type suite struct {
	dir       string
	test      policyTest
	policies  []*unstructured.Unstructured // VAPs, bindings and param objects, in file order
	resources []*unstructured.Unstructured // the objects to judge, in file order
}

// dirs lists the library's directories: those holding a kubeplan-test.yaml.
func dirs(t *testing.T) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join("*", "kubeplan-test.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range matches {
		out = append(out, filepath.Dir(m))
	}
	sort.Strings(out)
	if len(out) == 0 {
		t.Fatal("no policies/library/*/kubeplan-test.yaml")
	}
	return out
}

// load reads dir's kubeplan-test.yaml (strictly: an unknown field is an
// error) and the files it names.
func load(dir string) (*suite, error) {
	data, err := os.ReadFile(filepath.Join(dir, "kubeplan-test.yaml"))
	if err != nil {
		return nil, err
	}
	s := &suite{dir: dir}
	if err := yaml.UnmarshalStrict(data, &s.test); err != nil {
		return nil, fmt.Errorf("%s/kubeplan-test.yaml: %w", dir, err)
	}
	if s.test.APIVersion != "kubeplan.dev/v1alpha1" || s.test.Kind != "PolicyTest" {
		return nil, fmt.Errorf("%s/kubeplan-test.yaml: apiVersion %q kind %q, want kubeplan.dev/v1alpha1 PolicyTest", dir, s.test.APIVersion, s.test.Kind)
	}
	for _, f := range s.test.Policies {
		objs, err := readObjects(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		s.policies = append(s.policies, objs...)
	}
	for _, f := range s.test.Resources {
		objs, err := readObjects(filepath.Join(dir, f))
		if err != nil {
			return nil, err
		}
		s.resources = append(s.resources, objs...)
	}
	return s, nil
}

// readObjects decodes every document of a YAML file.
func readObjects(path string) ([]*unstructured.Unstructured, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := utilyaml.NewYAMLOrJSONDecoder(bytes.NewReader(data), 4096)
	var out []*unstructured.Unstructured
	for i := 1; ; i++ {
		var m map[string]any
		if err := dec.Decode(&m); errors.Is(err, io.EOF) {
			return out, nil
		} else if err != nil {
			return nil, fmt.Errorf("%s: document %d: %w", path, i, err)
		}
		if m == nil {
			continue
		}
		out = append(out, &unstructured.Unstructured{Object: m})
	}
}

// key names an object the way kubeplan-test.yaml does: KIND/NAME, or
// NAMESPACE/KIND/NAME when it names a namespace.
func key(o *unstructured.Unstructured) string {
	if ns := o.GetNamespace(); ns != "" {
		return ns + "/" + o.GetKind() + "/" + o.GetName()
	}
	return o.GetKind() + "/" + o.GetName()
}

// ofKind returns the suite's policy-file objects of kind.
func (s *suite) ofKind(kind string) []*unstructured.Unstructured {
	var out []*unstructured.Unstructured
	for _, o := range s.policies {
		if o.GetKind() == kind {
			out = append(out, o)
		}
	}
	return out
}

// resource returns the resource named by a results entry.
func (s *suite) resource(k string) *unstructured.Unstructured {
	for _, o := range s.resources {
		if key(o) == k {
			return o
		}
	}
	return nil
}
