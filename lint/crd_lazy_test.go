package lint

import (
	"fmt"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
)

// testCRD is a CRD of kind in group example.com with versions v1 and
// v1beta1 of one schema; props are the spec's properties as flow YAML.
func testCRD(kind, props string) string {
	return fmt.Sprintf(`apiVersion: apiextensions.k8s.io/v1
kind: CustomResourceDefinition
metadata: {name: %[2]ss.example.com}
spec:
  group: example.com
  names: {kind: %[1]s, plural: %[2]ss}
  scope: Namespaced
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
            x-kubernetes-validations:
            - {rule: "self.size <= 10", message: size too large}
            properties: %[3]s
  - name: v1beta1
    served: true
    storage: false
    schema:
      openAPIV3Schema:
        type: object
        properties:
          spec:
            type: object
            x-kubernetes-validations:
            - {rule: "self.size <= 10", message: size too large}
            properties: %[3]s
`, kind, strings.ToLower(kind), props)
}

func testCR(kind, version, name string, size any) string {
	return fmt.Sprintf("apiVersion: example.com/%s\nkind: %s\nmetadata: {name: %s}\nspec: {size: %v}\n", version, kind, name, size)
}

func parseAll(t *testing.T, docs ...string) []*manifest.Object {
	t.Helper()
	objs, probs := manifest.Parse("set.yaml", []byte(strings.Join(docs, "---\n")))
	if len(probs) > 0 {
		t.Fatalf("parsing: %v", probs[0].Message)
	}
	return objs
}

// A CRD schema is compiled once, when the first custom resource of its
// kind is checked, and shared by its versions; a CRD whose kind is absent
// is not compiled while checking, and is compiled only once, at the end,
// to report its schema if invalid (then it is not kept).
func TestCRDSchemasCompiledLazilyOnce(t *testing.T) {
	objs := parseAll(t,
		testCRD("Used", "{size: {type: integer}}"),
		testCRD("Unused", "{size: {type: integer}, other: {type: strnig}}"),
		testCR("Used", "v1", "a", 1), testCR("Used", "v1beta1", "b", 2), testCR("Used", "v1", "c", `"big"`), testCR("Used", "v1", "d", 11))
	l, err := newLinter(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if l.crds, err = collectCRDs(objs); err != nil {
		t.Fatal(err)
	}
	used := l.crds.versions[crdKey("example.com", "v1", "Used")].schema
	unused := l.crds.versions[crdKey("example.com", "v1", "Unused")].schema
	if len(l.crds.order) != 2 || l.crds.versions[crdKey("example.com", "v1beta1", "Used")].schema != used {
		t.Fatalf("versions with one schema must share it: %d distinct schemas", len(l.crds.order))
	}
	if used.compiles.Load() != 0 || unused.compiles.Load() != 0 {
		t.Fatal("a schema was compiled before any custom resource was checked")
	}
	var rules []string
	for _, o := range objs[2:] {
		fs, err := l.checkObject(o)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range fs {
			rules = append(rules, o.Name+":"+f.Rule)
		}
	}
	if want := []string{"c:crd-schema", "d:crd-validation"}; !reflect.DeepEqual(rules, want) {
		t.Errorf("findings = %v, want %v", rules, want)
	}
	if n := used.compiles.Load(); n != 1 {
		t.Errorf("the used schema was compiled %d times for 4 custom resources of 2 versions, want 1", n)
	}
	if n := unused.compiles.Load(); n != 0 {
		t.Errorf("the schema of an absent kind was compiled %d times while checking", n)
	}
	fs, err := l.crds.schemaFindings(nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range fs {
		got = append(got, fmt.Sprintf("%d %s %s", f.Line, f.Rule, f.Field))
	}
	// both versions of the invalid CRD, at their openAPIV3Schema (lines 46 and 58 of the set)
	if want := []string{"46 crd-schema spec.versions[0].schema.openAPIV3Schema", "58 crd-schema spec.versions[1].schema.openAPIV3Schema"}; !reflect.DeepEqual(got, want) {
		t.Errorf("schema findings = %q, want %q", got, want)
	}
	if n := unused.compiles.Load(); n != 1 || unused.compiled.Load() != nil || l.crdCache.len() != 1 {
		t.Errorf("the unused schema: %d compiles, kept %v, cache holds %d; want 1, false, 1", n, unused.compiled.Load() != nil, l.crdCache.len())
	}
}

// Streaming lint reads CRD files again for an invalid schema's finding and
// finds what Run finds, whichever file comes first.
func TestRunSourcesInvalidUnusedCRD(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a-crs.yaml": testCR("Used", "v1", "a", `"big"`),
		"m-crd.yaml": testCRD("Used", "{size: {type: integer}}") + "---\n" + testCRD("Unused", "{size: {type: integer}, other: {type: strnig}}"),
	}
	writeTree(t, dir, files)
	want, got := keptAndStreamed(t, dir, Options{})
	if !reflect.DeepEqual(got, want) {
		t.Errorf("streamed differs from Run:\n got %+v\nwant %+v", got.Findings, want.Findings)
	}
	var at []string
	for _, f := range got.Findings {
		at = append(at, fmt.Sprintf("%s:%d %s", filepath.Base(f.File), f.Line, f.Rule))
	}
	if want := []string{"a-crs.yaml:4 crd-schema", "m-crd.yaml:46 crd-schema", "m-crd.yaml:58 crd-schema"}; !reflect.DeepEqual(at, want) {
		t.Errorf("findings = %q, want %q", at, want)
	}
}

// The cache keeps compiled schemas within its bound, least recently used
// out; an evicted schema is compiled again, and validates as before.
func TestCRDCacheBound(t *testing.T) {
	var docs []string
	for _, k := range []string{"A", "B", "C"} {
		docs = append(docs, testCRD(k, "{size: {type: integer}, "+strings.ToLower(k)+": {type: string}}"))
	}
	cs, err := collectCRDs(parseAll(t, docs...))
	if err != nil {
		t.Fatal(err)
	}
	sa := cs.versions[crdKey("example.com", "v1", "A")].schema
	sb := cs.versions[crdKey("example.com", "v1", "B")].schema
	sc := cs.versions[crdKey("example.com", "v1", "C")].schema
	cache := newCRDCache(sa.size + sb.size)          // room for two
	for _, s := range []*crdSchema{sa, sb, sa, sc} { // A used again: B is the least recent when C comes
		if _, err := s.get(cache); err != nil {
			t.Fatal(err)
		}
	}
	if cache.len() != 2 || cache.used > cache.max {
		t.Errorf("cache holds %d schemas (%d of %d bytes), want 2 within the bound", cache.len(), cache.used, cache.max)
	}
	if sb.compiled.Load() != nil || sa.compiled.Load() == nil || sc.compiled.Load() == nil {
		t.Errorf("evicted: A %v B %v C %v; want only B", sa.compiled.Load() == nil, sb.compiled.Load() == nil, sc.compiled.Load() == nil)
	}
	c, err := sb.get(cache)
	if err != nil {
		t.Fatal(err)
	}
	if n := sb.compiles.Load(); n != 2 {
		t.Errorf("B compiled %d times, want 2 (again after eviction)", n)
	}
	if c.validate(map[string]any{"spec": map[string]any{"size": "big"}}) == nil {
		t.Error("the recompiled schema accepts a string size")
	}
	if cache.len() != 2 {
		t.Errorf("cache holds %d schemas after B came back, want 2", cache.len())
	}
}

// Rules of the same text share one compiled program across schemas, and
// rules in additionalProperties do not apply to declared properties.
func TestCELProgramsShared(t *testing.T) {
	rule := map[string]any{"rule": "self.size() <= 3", "message": "too long"}
	a := buildCEL(map[string]any{"properties": map[string]any{"x": map[string]any{"type": "string", "x-kubernetes-validations": []any{rule}}}})
	b := buildCEL(map[string]any{"properties": map[string]any{"y": map[string]any{"items": map[string]any{"x-kubernetes-validations": []any{rule}}}}})
	if a == nil || b == nil {
		t.Fatal("no rule tree")
	}
	pa, pb := a.props["x"].rules[0].prg, b.props["y"].items.rules[0].prg
	if pa == nil || pa != pb {
		t.Error("one rule text compiled into two programs")
	}
	if buildCEL(map[string]any{"properties": map[string]any{"x": map[string]any{"type": "string"}}}) != nil {
		t.Error("a schema without rules has a rule tree")
	}
	n := buildCEL(map[string]any{
		"properties":           map[string]any{"known": map[string]any{"type": "string"}},
		"additionalProperties": map[string]any{"x-kubernetes-validations": []any{rule}},
	})
	var vs []celViolation
	checkCEL(n, map[string]any{"known": "longer", "other": "longer", "ok": "abc"}, nil, &vs)
	if len(vs) != 1 || !reflect.DeepEqual(vs[0].path, []string{"other"}) {
		t.Errorf("violations = %+v, want one at other", vs)
	}
}

// A source of CRDs and built-in objects only is checked when phase 1 reads
// it for its CRDs, not read again in phase 2: with one worker it is
// handed to Loaded before every source of custom resources, whatever its
// name. A source mixing CRDs and custom resources waits for phase 2. The
// findings are those of Run.
func TestRunSourcesCRDOnlyCheckedOnce(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a-crs.yaml":   testCR("Used", "v1", "a", `"big"`),
		"m-crd.yaml":   testCRD("Used", "{size: {type: integer}}") + "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {k: 1}\n",
		"z-mixed.yaml": testCRD("Other", "{size: {type: integer}}") + "---\n" + testCR("Other", "v1", "o", 11),
	}
	writeTree(t, dir, files)
	var order []string
	opts := Options{Concurrency: 1, Loaded: func(objs []*manifest.Object) {
		if len(objs) > 0 {
			order = append(order, filepath.Base(objs[0].File))
		}
	}}
	want, got := keptAndStreamed(t, dir, opts)
	if !reflect.DeepEqual(got, want) {
		t.Errorf("streamed differs from Run:\n got %+v\nwant %+v", got.Findings, want.Findings)
	}
	// keptAndStreamed calls Loaded for Run too: the streamed order is the last three.
	if len(order) < 3 {
		t.Fatalf("Loaded saw %q", order)
	}
	if streamed, wantOrder := order[len(order)-3:], []string{"m-crd.yaml", "a-crs.yaml", "z-mixed.yaml"}; !reflect.DeepEqual(streamed, wantOrder) {
		t.Errorf("streamed sources were checked in the order %q, want %q", streamed, wantOrder)
	}
	var rules []string
	for _, f := range got.Findings {
		rules = append(rules, fmt.Sprintf("%s:%s", filepath.Base(f.File), f.Rule))
	}
	for _, r := range []string{"a-crs.yaml:crd-schema", "m-crd.yaml:schema", "z-mixed.yaml:crd-validation"} {
		if !slices.Contains(rules, r) {
			t.Errorf("no %s finding in %q", r, rules)
		}
	}
}
