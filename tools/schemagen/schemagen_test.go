package main

import (
	"github.com/kubeplan/kubeplan/internal/testing/testkube"

	"archive/tar"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/yannh/kubeconform/pkg/registry"
)

// TestFileNameMatchesKubeconform asks kubeconform's own registry which file it
// would open for each GroupVersionKind.
func TestFileNameMatchesKubeconform(t *testing.T) {
	dir := t.TempDir()
	reg, err := registry.New(dir+"/{{ .ResourceKind }}{{ .KindSuffix }}.json", "", true, false, false)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		k    gvk
		want string
	}{
		{gvk{"apps", "v1", "Deployment"}, "deployment-apps-v1.json"},
		{gvk{"", "v1", "Service"}, "service-v1.json"},
		{gvk{"networking.k8s.io", "v1", "Ingress"}, "ingress-networking-v1.json"},
		{gvk{"rbac.authorization.k8s.io", "v1", "ClusterRole"}, "clusterrole-rbac-v1.json"},
		{gvk{"flowcontrol.apiserver.k8s.io", "v1", "FlowSchema"}, "flowschema-flowcontrol-v1.json"},
		{gvk{"resource.k8s.io", "v1beta2", "ResourceClaim"}, "resourceclaim-resource-v1beta2.json"},
	} {
		if got := tc.k.fileName(); got != tc.want {
			t.Errorf("%v: fileName %s, want %s", tc.k, got, tc.want)
		}
		apiVersion := tc.k.Version
		if tc.k.Group != "" {
			apiVersion = tc.k.Group + "/" + tc.k.Version
		}
		path, _, _ := reg.DownloadSchema(tc.k.Kind, apiVersion, "1.37.0")
		if path != filepath.Join(dir, tc.k.fileName()) {
			t.Errorf("%v: kubeconform opens %s, we write %s", tc.k, path, tc.k.fileName())
		}
	}
}

func decode(t *testing.T, s string) map[string]any {
	t.Helper()
	var m map[string]any
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber()
	if err := dec.Decode(&m); err != nil {
		t.Fatal(err)
	}
	return m
}

func TestStandalone(t *testing.T) {
	defs := map[string]map[string]any{
		"x.Thing": decode(t, `{"description": "d", "type": "object", "required": ["spec"],
			"x-kubernetes-group-version-kind": [{"group": "x", "version": "v1", "kind": "Thing"}],
			"properties": {
				"kind": {"type": "string", "description": "k"},
				"spec": {"allOf": [{"$ref": "#/components/schemas/x.Spec"}], "default": {}, "description": "s"}}}`),
		"x.Spec": decode(t, `{"type": "object", "properties": {
				"port": {"$ref": "#/components/schemas/intstr.IntOrString"},
				"size": {"$ref": "#/components/schemas/resource.Quantity"},
				"count": {"type": "integer", "format": "int32", "minimum": 1},
				"labels": {"type": "object", "additionalProperties": {"type": "string", "default": ""}},
				"raw": {"type": "object", "x-kubernetes-preserve-unknown-fields": true, "properties": {"a": {"type": "string"}}},
				"schema": {"$ref": "#/components/schemas/x.Props"}}}`),
		"x.Props": decode(t, `{"type": "object", "properties": {
				"type": {"type": "string", "enum": ["object", "string"]},
				"properties": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/x.Props"}},
				"items": {"$ref": "#/components/schemas/x.Props"}}}`),
		"intstr.IntOrString": decode(t, `{"description": "i", "format": "int-or-string", "oneOf": [{"type": "integer"}, {"type": "string"}]}`),
		"resource.Quantity":  decode(t, `{"oneOf": [{"type": "string"}, {"type": "number"}]}`),
		"x.Unused":           decode(t, `{"type": "string"}`),
	}
	out, err := standalone(defs, "x.Thing")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := compactJSON(out)
	text := string(b)
	for _, unwanted := range []string{"description", "default", "#/components", "x.Unused", "allOf"} {
		if strings.Contains(text, unwanted) {
			t.Errorf("output contains %q: %s", unwanted, text)
		}
	}
	if out["type"] != "object" {
		t.Errorf("root type %v, want plain object", out["type"])
	}
	if out["additionalProperties"] != false {
		t.Error("root is not strict")
	}
	definitions := out["definitions"].(map[string]any)
	if len(definitions) != 4 {
		t.Errorf("definitions %v, want Spec, Props, IntOrString, Quantity", keys(definitions))
	}

	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft4)
	doc, _ := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err := c.AddResource("thing.json", doc); err != nil {
		t.Fatal(err)
	}
	s, err := c.Compile("thing.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		doc   string
		valid bool
	}{
		{`{"kind": "Thing", "spec": {"port": 80, "size": "1Gi", "count": 2, "labels": {"a": "b"}}}`, true},
		{`{"kind": null, "spec": {"port": "http", "size": 1.5, "count": null, "labels": null}}`, true},
		{`{"spec": {"port": null, "size": null}}`, true},
		{`{"spec": {"raw": {"a": "x", "anything": [1, {"b": 2}]}}}`, true},
		{`{"spec": {"schema": {"type": "object", "properties": {"a": {"items": {"type": "string"}}}}}}`, true},
		{`{"spec": {"schema": {"properties": {"a": {"items": {"type": "number"}}}}}}`, false},
		{`{"spec": {"schema": {"properties": {"a": {"bogus": 1}}}}}`, false},
		{`{"spec": {"port": true}}`, false},
		{`{"spec": {"count": 0}}`, false},
		{`{"spec": {"count": "3"}}`, false},
		{`{"spec": {"labels": {"a": 1}}}`, false},
		{`{"spec": {"unknown": 1}}`, false},
		{`{"kind": "Thing"}`, false},
		{`null`, false},
	} {
		v, err := jsonschema.UnmarshalJSON(strings.NewReader(tc.doc))
		if err != nil {
			t.Fatal(err)
		}
		if err := s.Validate(v); (err == nil) != tc.valid {
			t.Errorf("%s: valid=%v, want %v (%v)", tc.doc, err == nil, tc.valid, err)
		}
	}
}

func keys(m map[string]any) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return out
}

func writeFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAPILifecycles(t *testing.T) {
	dir := t.TempDir()
	lifecycleSrc := func(pkg string) string {
		return `package ` + pkg + `

import schema "k8s.io/apimachinery/pkg/runtime/schema"

func (in *Widget) APILifecycleIntroduced() (major, minor int) { return 1, 8 }
func (in *Widget) APILifecycleDeprecated() (major, minor int) { return 1, 11 }
func (in *Widget) APILifecycleReplacement() schema.GroupVersionKind {
	return schema.GroupVersionKind{Group: "apps", Version: "v1", Kind: "Widget"}
}
func (in *Widget) APILifecycleRemoved() (major, minor int) { return 1, 16 }
func (in *WidgetList) APILifecycleIntroduced() (major, minor int) { return 1, 8 }
func (in *Gadget) APILifecycleIntroduced() (major, minor int) { return 1, 30 }
func (in *Gadget) DeepCopy() *Gadget { return in }
`
	}
	writeFiles(t, dir, map[string]string{
		"rbac/v1beta1/doc.go":           "// +groupName=rbac.authorization.k8s.io\npackage v1beta1\n",
		"rbac/v1beta1/" + lifecycleFile: lifecycleSrc("v1beta1"),
		"apps/v1beta2/register.go":      "package v1beta2\n\n// GroupName is the group name\nconst GroupName = \"apps\"\n",
		"apps/v1beta2/" + lifecycleFile: lifecycleSrc("v1beta2"),
		"core/v1/doc.go":                "// +k8s:openapi-gen=true\n\n// +groupName=\n\n// Package v1 is core.\npackage v1\n",
		"core/v1/" + lifecycleFile:      lifecycleSrc("v1"),
		"batch/v1/types.go":             "package v1\n",
		"batch/v1/" + lifecycleFile:     lifecycleSrc("v1"),
	})
	rows, err := apiLifecycles(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]lifecycle{}
	for _, r := range rows {
		got[r.Group+"/"+r.Version+"/"+r.Kind] = r
	}
	want := lifecycle{Group: "rbac.authorization.k8s.io", Version: "v1beta1", Kind: "Widget",
		Introduced: "1.8", Deprecated: "1.11", Removed: "1.16", Replacement: "apps/v1 Widget"}
	if got[want.Group+"/v1beta1/Widget"] != want {
		t.Errorf("rbac Widget = %+v, want %+v", got[want.Group+"/v1beta1/Widget"], want)
	}
	for _, k := range []string{"apps/v1beta2/Widget", "/v1/Widget", "batch/v1/Widget", "/v1/Gadget"} {
		if _, ok := got[k]; !ok {
			t.Errorf("missing %s in %v", k, rows)
		}
	}
	if g := got["/v1/Gadget"]; g.Introduced != "1.30" || g.Removed != "" || g.Replacement != "" {
		t.Errorf("Gadget = %+v", g)
	}
	if len(rows) != 8 {
		t.Errorf("%d rows, want 8 (no List kinds): %+v", len(rows), rows)
	}

	writeFiles(t, dir, map[string]string{"bad/v1/" + lifecycleFile: "package v1\nfunc (in *X) APILifecycleRemoved() (major, minor int) { return removedMajor, 2 }\n"})
	if _, err := apiLifecycles(dir); err == nil {
		t.Error("a non-literal lifecycle method was accepted")
	}
}

func TestServedAPIs(t *testing.T) {
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{
		"api/discovery/api__v1.json": `{"kind": "APIResourceList", "groupVersion": "v1", "resources": [
			{"name": "pods", "kind": "Pod", "namespaced": true},
			{"name": "pods/status", "kind": "Pod", "namespaced": true},
			{"name": "namespaces", "kind": "Namespace", "namespaced": false}]}`,
		"api/discovery/apis.json": `{"kind": "APIGroupList", "groups": [
			{"name": "apps", "preferredVersion": {"groupVersion": "apps/v1", "version": "v1"}}]}`,
		"api/discovery/apis__apps.json": `{"kind": "APIGroup", "name": "apps"}`,
		"api/discovery/apis__apps__v1.json": `{"kind": "APIResourceList", "groupVersion": "apps/v1", "resources": [
			{"name": "deployments", "kind": "Deployment", "namespaced": true},
			{"name": "deployments/scale", "kind": "Scale", "namespaced": true}]}`,
		"api/discovery/aggregated_v2.json": `{"kind": "APIGroupDiscoveryList"}`,
	})
	served, preferred, err := servedAPIs(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := []apiResource{
		{"", "v1", "Namespace", "namespaces", false},
		{"", "v1", "Pod", "pods", true},
		{"apps", "v1", "Deployment", "deployments", true},
	}
	if len(served) != len(want) {
		t.Fatalf("served = %+v, want %+v", served, want)
	}
	for i := range want {
		if served[i] != want[i] {
			t.Errorf("served[%d] = %+v, want %+v", i, served[i], want[i])
		}
	}
	if preferred["apps"] != "v1" || preferred[""] != "v1" {
		t.Errorf("preferred = %v", preferred)
	}
}

func TestTarGzDeterministic(t *testing.T) {
	files := map[string][]byte{"b.json": []byte(`{}`), "a.json": []byte(`{"a":1}`)}
	one, err := tarGz(files)
	if err != nil {
		t.Fatal(err)
	}
	two, _ := tarGz(files)
	if !bytes.Equal(one, two) {
		t.Fatal("tarGz is not deterministic")
	}
	zr, err := gzip.NewReader(bytes.NewReader(one))
	if err != nil {
		t.Fatal(err)
	}
	if zr.Name != "" || !zr.ModTime.IsZero() {
		t.Errorf("gzip header carries name %q / time %v", zr.Name, zr.ModTime)
	}
	tr := tar.NewReader(zr)
	var names []string
	for {
		hdr, err := tr.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		if !hdr.ModTime.Equal(epoch) || hdr.Mode != 0o644 || hdr.Uid != 0 {
			t.Errorf("%s: header %+v", hdr.Name, hdr)
		}
		names = append(names, hdr.Name)
	}
	if strings.Join(names, ",") != "a.json,b.json" {
		t.Errorf("entries %v, want sorted", names)
	}
}

// TestCommittedArtifactsUpToDate regenerates everything from the module cache
// and compares with internal/kubeapi. It needs the Kubernetes modules.
func TestCommittedArtifactsUpToDate(t *testing.T) {
	if testing.Short() {
		testkube.SkipUnlessCI(t, "regenerates the artifacts from the Kubernetes modules; skipped with -short")
	}
	if _, err := moduleDir(kubeModule + "@" + schemaKube); err != nil {
		testkube.SkipUnlessCI(t, "the Kubernetes modules cannot be downloaded: "+err.Error())
	}
	archive, _, err := buildSchemas()
	if err != nil {
		t.Fatal(err)
	}
	index, err := buildIndex()
	if err != nil {
		t.Fatal(err)
	}
	goFile, err := generatedGo(minor(schemaKube), "k8s-v"+minor(schemaKube)+".tar.gz")
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join("..", "..", "internal", "kubeapi")
	for name, want := range map[string][]byte{
		"k8s-v" + minor(schemaKube) + ".tar.gz": archive,
		"apis.json.gz":                          index,
		"zz_generated.go":                       goFile,
	} {
		got, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("internal/kubeapi/%s is stale (%v); run go generate ./internal/kubeapi/", name, err)
		}
	}
}
