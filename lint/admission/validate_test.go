package admission

import (
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
)

func TestSegments(t *testing.T) {
	for in, want := range map[string]string{
		"spec.validations[0].expression":          "spec/validations/0/expression",
		"metadata.labels[app.kubernetes.io/name]": "metadata/labels/app.kubernetes.io/name",
		"spec.paramRef":                           "spec/paramRef",
		"":                                        "",
		"spec.broken[":                            "spec/broken/[", // unclosed: kept, never a panic
	} {
		if got := strings.Join(segments(in), "/"); got != want {
			t.Errorf("segments(%q) = %q, want %q", in, got, want)
		}
	}
}

// A value of the wrong type is reported at the field holding it, with its
// list index, where the decoder's path has neither the index nor the
// field's name in the API's JSON (the embedded RuleWithOperations).
func TestWrongTypeAtItsField(t *testing.T) {
	const src = `apiVersion: admissionregistration.k8s.io/v1
kind: ValidatingAdmissionPolicy
metadata:
  name: wrong-type
spec:
  matchConstraints:
    resourceRules:
      - {apiGroups: [apps], apiVersions: [v1], operations: [CREATE], resources: [deployments]}
      - {apiGroups: [""], apiVersions: [v1], operations: CREATE, resources: [pods]}
  validations:
    - expression: "true"
`
	objs, probs := manifest.Parse("p.yaml", []byte(src))
	if len(probs) > 0 {
		t.Fatal(probs[0])
	}
	_, got := Load(objs, Options{})
	if len(got) != 1 || got[0].Line != 9 || got[0].Col != 58 ||
		!strings.HasSuffix(got[0].Message, "refused by the API server: spec.matchConstraints.resourceRules[1].operations: Invalid value: expected array, got string") {
		t.Fatalf("got %v", got)
	}
}
