package applyset

import (
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"reflect"
	"strings"
	"testing"
)

func TestID(t *testing.T) {
	independent := func(s string) string {
		sum := sha256.Sum256([]byte(s))
		return "applyset-" + base64.RawURLEncoding.EncodeToString(sum[:]) + "-v1"
	}
	for _, tc := range []struct {
		p      Parent
		hashed string // what kubectl hashes
		want   string // from a parent kubectl made, when known
	}{
		{Parent{"ConfigMap", "", "gitops-applyset", "store"}, "gitops-applyset.store.ConfigMap.", ""},
		{Parent{"Secret", "", "x", "default"}, "x.default.Secret.", ""},
		{Parent{"Widget", "example.com", "w", ""}, "w..Widget.example.com", ""},
		// Written by kubectl 1.32.4: --applyset=configmap/p0 -n testintegrationprobe-1
		{Parent{"ConfigMap", "", "p0", "testintegrationprobe-1"}, "p0.testintegrationprobe-1.ConfigMap.", "applyset-mQJOj5blRS5_sPHcQ5i2SY9723K7Nk7IgS5CkD6HQIs-v1"},
		// Written by kubectl 1.32.4: --applyset=p5 (a Secret) -n testintegrationprobe-1
		{Parent{"Secret", "", "p5", "testintegrationprobe-1"}, "p5.testintegrationprobe-1.Secret.", "applyset-9fqtRyeXqAz5on8y3GWC7pzboaC36cBQNMLxtK1zpLw-v1"},
	} {
		got := tc.p.ID()
		if want := independent(tc.hashed); got != want {
			t.Errorf("%+v.ID() = %s, want %s", tc.p, got, want)
		}
		if tc.want != "" && got != tc.want {
			t.Errorf("%+v.ID() = %s, kubectl wrote %s", tc.p, got, tc.want)
		}
		if !idPattern().MatchString(got) || len(got) > 63 {
			t.Errorf("%+v.ID() = %s is no valid id label value", tc.p, got)
		}
	}
}

func TestParseParentFlag(t *testing.T) {
	cm := func(name string) Parent { return Parent{Kind: "ConfigMap", Name: name, Namespace: "ns"} }
	sec := func(name string) Parent { return Parent{Kind: "Secret", Name: name, Namespace: "ns"} }
	for _, tc := range []struct {
		in   string
		ns   string
		want Parent
		err  string
	}{
		{in: "configmap/gitops-applyset", want: cm("gitops-applyset")},
		{in: "configmaps/a", want: cm("a")},
		{in: "cm/a", want: cm("a")},
		{in: "ConfigMap/a", want: cm("a")},
		{in: "CONFIGMAPS/a", want: cm("a")},
		{in: "configmaps./a", want: cm("a")},
		{in: "secret/a", want: sec("a")},
		{in: "Secret/a", want: sec("a")},
		{in: "secrets/a", want: sec("a")},
		{in: "a", want: sec("a")}, // kubectl's default parent type
		{in: "a.b", want: sec("a.b")},
		{in: "configmap/", err: "name cannot be blank"},
		{in: "", err: "name cannot be blank"},
		{in: "/a", err: "resource cannot be blank"},
		{in: "configmaps.core/a", err: "not supported"},
		{in: "configmaps.v1/a", err: "not supported"},
		{in: "deployments.apps/a", err: "not supported"},
		{in: "widgets.example.com/a", err: "not supported"},
		{in: "configmap/Bad_Name", err: "invalid ConfigMap name"},
		{in: "configmap/a/b", err: "invalid ConfigMap name"},
		{in: "configmap/a", ns: "-", err: "namespace is required"},
		{in: "configmap/a", ns: "Bad", err: "invalid namespace"},
	} {
		ns := tc.ns
		switch ns {
		case "":
			ns = "ns"
		case "-":
			ns = ""
		}
		got, err := ParseParentFlag(tc.in, ns)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("ParseParentFlag(%q, %q) = %+v, %v; want error containing %q", tc.in, ns, got, err, tc.err)
			}
			continue
		}
		if err != nil || got != tc.want {
			t.Errorf("ParseParentFlag(%q, %q) = %+v, %v; want %+v", tc.in, ns, got, err, tc.want)
		}
	}
}

func TestParentHelpers(t *testing.T) {
	p := Parent{Kind: "ConfigMap", Name: "gitops-applyset", Namespace: "store"}
	if p.String() != "configmap/gitops-applyset" || p.Resource() != "configmaps" || p.GroupKind() != (GroupKind{Kind: "ConfigMap"}) {
		t.Errorf("got %s %s %v", p, p.Resource(), p.GroupKind())
	}
	if s := (Parent{Kind: "Secret", Name: "x"}); s.Resource() != "secrets" || s.String() != "secret/x" {
		t.Errorf("got %s %s", s, s.Resource())
	}
	if got, err := ParseParentFlag(p.String(), p.Namespace); err != nil || got != p {
		t.Errorf("ParseParentFlag(String()) = %+v, %v", got, err)
	}
	if got := MemberSelector("applyset-x-v1"); got != "applyset.kubernetes.io/part-of=applyset-x-v1" {
		t.Errorf("MemberSelector = %s", got)
	}
	if got := MemberLabels("applyset-x-v1"); !reflect.DeepEqual(got, map[string]string{LabelPartOf: "applyset-x-v1"}) {
		t.Errorf("MemberLabels = %v", got)
	}
}

func TestGroupKinds(t *testing.T) {
	for _, tc := range []struct {
		in, format string
		want       []GroupKind
		err        bool
	}{
		{in: "", want: nil},
		{in: "ConfigMap", format: "ConfigMap", want: []GroupKind{{Kind: "ConfigMap"}}},
		{in: "Service,Deployment.apps,ConfigMap", format: "ConfigMap,Deployment.apps,Service",
			want: []GroupKind{{Kind: "ConfigMap"}, {Group: "apps", Kind: "Deployment"}, {Kind: "Service"}}},
		{in: "Certificate.cert-manager.io, Secret,Secret", format: "Certificate.cert-manager.io,Secret",
			want: []GroupKind{{Group: "cert-manager.io", Kind: "Certificate"}, {Kind: "Secret"}}},
		{in: "ConfigMap,", err: true},
		{in: ",ConfigMap", err: true},
		{in: ".apps", err: true},
		{in: "Deployment.", err: true},
	} {
		got, err := ParseGroupKinds(tc.in)
		if tc.err {
			if err == nil {
				t.Errorf("ParseGroupKinds(%q) = %v, want error", tc.in, got)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("ParseGroupKinds(%q) = %v, %v; want %v", tc.in, got, err, tc.want)
		}
		if f := FormatGroupKinds(got); f != tc.format {
			t.Errorf("FormatGroupKinds(%v) = %q, want %q", got, f, tc.format)
		}
	}
	a := []GroupKind{{Kind: "Service"}, {Group: "apps", Kind: "Deployment"}}
	b := []GroupKind{{Kind: "ConfigMap"}, {Kind: "Service"}, {Group: "apps", Kind: "StatefulSet"}}
	want := []GroupKind{{Kind: "ConfigMap"}, {Group: "apps", Kind: "Deployment"}, {Kind: "Service"}, {Group: "apps", Kind: "StatefulSet"}}
	if got := Union(a, b); !reflect.DeepEqual(got, want) {
		t.Errorf("Union = %v, want %v", got, want)
	}
	if a[0].Kind != "Service" {
		t.Errorf("Union modified its argument: %v", a)
	}
	if got := Union(nil, nil); got != nil {
		t.Errorf("Union(nil, nil) = %v", got)
	}
}

func TestTooling(t *testing.T) {
	if got := Tooling("v0.3.0"); got != "kubeplan/v0.3.0" || !IsOurs(got) {
		t.Errorf("Tooling = %q", got)
	}
	for _, tc := range []struct {
		tooling, name string
		ours          bool
	}{
		{"kubeplan/v1.2.3", "kubeplan", true},
		{"kubeplan", "kubeplan", true},
		{"kubectl/v1.32.4", "kubectl", false},
		{"kubectl/v1.32.4-dispatcher", "kubectl", false},
		{"example.com/tool/v1", "example.com/tool", false},
		{"kubeplanx/v1", "kubeplanx", false},
		{"", "", false},
	} {
		if got := ToolNameOf(tc.tooling); got != tc.name {
			t.Errorf("ToolNameOf(%q) = %q, want %q", tc.tooling, got, tc.name)
		}
		if got := IsOurs(tc.tooling); got != tc.ours {
			t.Errorf("IsOurs(%q) = %v", tc.tooling, got)
		}
	}
}

// A parent as kubectl 1.32.4 writes it (from `kubectl get -o yaml`).
var (
	kubectlLabels      = map[string]string{LabelID: "applyset-mQJOj5blRS5_sPHcQ5i2SY9723K7Nk7IgS5CkD6HQIs-v1"}
	kubectlAnnotations = map[string]string{
		"applyset.kubernetes.io/additional-namespaces": "",
		"applyset.kubernetes.io/contains-group-kinds":  "ConfigMap,Deployment.apps,Service",
		"applyset.kubernetes.io/tooling":               "kubectl/v1.32.4-dispatcher",
	}
)

func with(m map[string]string, kv ...string) map[string]string {
	out := map[string]string{}
	for k, v := range m {
		out[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		if kv[i+1] == "<delete>" {
			delete(out, kv[i])
		} else {
			out[kv[i]] = kv[i+1]
		}
	}
	return out
}

func TestReadState(t *testing.T) {
	id := kubectlLabels[LabelID]
	for _, tc := range []struct {
		name                string
		labels, annotations map[string]string
		want                State
		err                 string
	}{
		{name: "kubectl", labels: kubectlLabels, annotations: kubectlAnnotations, want: State{
			ID: id, Tooling: "kubectl/v1.32.4-dispatcher",
			GroupKinds: []GroupKind{{Kind: "ConfigMap"}, {Group: "apps", Kind: "Deployment"}, {Kind: "Service"}},
		}},
		{name: "namespaces", labels: kubectlLabels, annotations: with(kubectlAnnotations, AnnotationNamespaces, "b,a,b", AnnotationGroupKinds, ""),
			want: State{ID: id, Tooling: "kubectl/v1.32.4-dispatcher", Namespaces: []string{"a", "b"}}},
		{name: "no namespaces annotation", labels: kubectlLabels, annotations: with(kubectlAnnotations, AnnotationNamespaces, "<delete>"),
			want: State{ID: id, Tooling: "kubectl/v1.32.4-dispatcher",
				GroupKinds: []GroupKind{{Kind: "ConfigMap"}, {Group: "apps", Kind: "Deployment"}, {Kind: "Service"}}}},
		{name: "deprecated group resources", labels: kubectlLabels,
			annotations: with(kubectlAnnotations, AnnotationGroupKinds, "<delete>", AnnotationGroupResources, "services,deployments.apps,configmaps"),
			want: State{ID: id, Tooling: "kubectl/v1.32.4-dispatcher",
				GroupResources: []GroupResource{{Resource: "configmaps"}, {Group: "apps", Resource: "deployments"}, {Resource: "services"}}}},
		{name: "kinds win over deprecated resources", labels: kubectlLabels,
			annotations: with(kubectlAnnotations, AnnotationGroupKinds, "Secret", AnnotationGroupResources, "configmaps"),
			want:        State{ID: id, Tooling: "kubectl/v1.32.4-dispatcher", GroupKinds: []GroupKind{{Kind: "Secret"}}}},
		{name: "plain configmap", labels: map[string]string{"app": "x"}, annotations: nil, err: "not an ApplySet parent"},
		{name: "no id", labels: nil, annotations: kubectlAnnotations, err: "no applyset.kubernetes.io/id label"},
		{name: "bad id", labels: map[string]string{LabelID: "applyset-abc-v1"}, annotations: kubectlAnnotations, err: "not of the form"},
		{name: "no tooling", labels: kubectlLabels, annotations: with(kubectlAnnotations, AnnotationTooling, "<delete>"), err: "no applyset.kubernetes.io/tooling"},
		{name: "empty tooling", labels: kubectlLabels, annotations: with(kubectlAnnotations, AnnotationTooling, "/v1"), err: "names no tool"},
		{name: "no kinds", labels: kubectlLabels, annotations: with(kubectlAnnotations, AnnotationGroupKinds, "<delete>"), err: "neither"},
		{name: "bad kinds", labels: kubectlLabels, annotations: with(kubectlAnnotations, AnnotationGroupKinds, "ConfigMap,,Service"), err: "contains-group-kinds: empty item"},
		{name: "bad resources", labels: kubectlLabels, annotations: with(kubectlAnnotations, AnnotationGroupKinds, "<delete>", AnnotationGroupResources, ".apps"), err: "contains-group-resources: malformed"},
		{name: "bad namespace", labels: kubectlLabels, annotations: with(kubectlAnnotations, AnnotationNamespaces, "a,B_"), err: "invalid namespace"},
	} {
		got, err := ReadState(tc.labels, tc.annotations)
		if tc.err != "" {
			if err == nil || !strings.Contains(err.Error(), tc.err) {
				t.Errorf("%s: ReadState = %+v, %v; want error containing %q", tc.name, got, err, tc.err)
			}
			continue
		}
		if err != nil || !reflect.DeepEqual(got, tc.want) {
			t.Errorf("%s: ReadState = %+v, %v; want %+v", tc.name, got, err, tc.want)
		}
	}
	if _, err := ReadState(nil, map[string]string{"other": "x"}); !errors.Is(err, ErrNotParent) {
		t.Errorf("ReadState of a plain object: %v, want ErrNotParent", err)
	}
}

func TestParentRead(t *testing.T) {
	p := Parent{Kind: "ConfigMap", Name: "p0", Namespace: "testintegrationprobe-1"}
	if _, err := p.Read(kubectlLabels, kubectlAnnotations); err != nil {
		t.Errorf("Read: %v", err)
	}
	other := Parent{Kind: "Secret", Name: "p0", Namespace: "testintegrationprobe-1"}
	if _, err := other.Read(kubectlLabels, kubectlAnnotations); err == nil || !strings.Contains(err.Error(), "want "+other.ID()) {
		t.Errorf("Read of another parent's labels: %v", err)
	}
}

func TestRoundTrip(t *testing.T) {
	p := Parent{Kind: "ConfigMap", Name: "gitops-applyset", Namespace: "store"}
	for _, s := range []State{
		NewState(p, "v0.3.0", nil, nil),
		NewState(p, "v0.3.0", []GroupKind{{Kind: "Service"}, {Group: "apps", Kind: "Deployment"}, {Kind: "ConfigMap"}, {Kind: "Service"}},
			[]string{"store", "b", "", "a", "b"}),
		{ID: p.ID(), Tooling: "kubectl/v1.32.4", GroupKinds: []GroupKind{{Kind: "ConfigMap"}}, Namespaces: []string{"x"}},
	} {
		got, err := ReadState(s.Labels(), s.Annotations())
		if err != nil || !reflect.DeepEqual(got, s) {
			t.Errorf("ReadState(%+v written) = %+v, %v", s, got, err)
		}
	}
	s := NewState(p, "v0.3.0", []GroupKind{{Kind: "Service"}, {Group: "apps", Kind: "Deployment"}, {Kind: "ConfigMap"}}, []string{"store", "b", "a"})
	if want := map[string]string{
		AnnotationTooling:    "kubeplan/v0.3.0",
		AnnotationGroupKinds: "ConfigMap,Deployment.apps,Service",
		AnnotationNamespaces: "a,b",
	}; !reflect.DeepEqual(s.Annotations(), want) {
		t.Errorf("Annotations = %v, want %v", s.Annotations(), want)
	}
	if want := map[string]string{LabelID: p.ID()}; !reflect.DeepEqual(s.Labels(), want) {
		t.Errorf("Labels = %v, want %v", s.Labels(), want)
	}
	// kubectl always writes the namespaces annotation, empty or not; so do we.
	if a := NewState(p, "v1", nil, nil).Annotations(); a[AnnotationNamespaces] != "" || a[AnnotationGroupKinds] != "" || len(a) != 3 {
		t.Errorf("empty Annotations = %v", a)
	}
}
