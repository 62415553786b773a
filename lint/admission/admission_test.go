package admission

import (
	"os"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
)

func parse(t *testing.T, files ...string) []*manifest.Object {
	t.Helper()
	var out []*manifest.Object
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		objs, probs := manifest.Parse(f, data)
		if len(probs) > 0 {
			t.Fatalf("%s: %v", f, probs[0])
		}
		out = append(out, objs...)
	}
	return out
}

func find(objs []*manifest.Object, kind, name string) *manifest.Object {
	for _, o := range objs {
		if o.Kind == kind && o.Name == name {
			return o
		}
	}
	return nil
}

func TestCheck(t *testing.T) {
	pol := parse(t, "testdata/policies.yaml")
	res := parse(t, "testdata/resources.yaml")
	set, probs := Load(append(pol, res...), Options{})
	if len(probs) != 1 || !strings.Contains(probs[0].Message, "broken") || probs[0].Line != 83 || probs[0].Col != 42 {
		t.Fatalf("want one compile problem of policy broken at 83:42, got %v", probs)
	}
	cases := []struct {
		kind, name string
		want       []string // result:action:message
	}{
		{"Deployment", "web", []string{"fail:Deny:replicas 5 over 3", "not-evaluable:Deny:validation 1 reads authorizer or request.userInfo, which only the API server knows"}},
		{"Deployment", "small", []string{"not-evaluable:Deny:validation 1 reads authorizer or request.userInfo, which only the API server knows"}},
		{"Deployment", "dev", nil},
		{"Pod", "big", []string{"fail:Warn:memory limit must be under 1Gi"}},
	}
	for _, c := range cases {
		var got []string
		for _, v := range set.Check(find(res, c.kind, c.name)) {
			got = append(got, v.Result+":"+v.Action+":"+v.Message)
		}
		if strings.Join(got, "|") != strings.Join(c.want, "|") {
			t.Errorf("%s/%s: got %q, want %q", c.kind, c.name, got, c.want)
		}
	}
	v := set.Check(find(res, "Deployment", "web"))[0]
	if v.FieldPath != "" || v.Forbidden("web") != `deployments.apps "web" is forbidden: ValidatingAdmissionPolicy 'max-replicas' with binding 'max-replicas-prod' denied request: replicas 5 over 3` {
		t.Errorf("field path %q, forbidden %q", v.FieldPath, v.Forbidden("web"))
	}
}

func TestFieldPathOf(t *testing.T) {
	got := strings.Join(FieldPathOf(".spec.containers[0].image"), "/") + " " + strings.Join(FieldPathOf("metadata.labels['app.kubernetes.io/name']"), "/")
	if got != "spec/containers/0/image metadata/labels/app.kubernetes.io/name" {
		t.Errorf("got %q", got)
	}
}
