package kustomize_test

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/kustomize"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/rogpeppe/go-internal/txtar"
)

// TestTracedBuildMatchesOrigins builds every kustomization of the
// repository's fixtures (testdata/ trees and the files of the CLI scripts)
// both ways: traced from what the build read, and with kustomize's origin
// annotations. Every object must come out the same: content, file,
// document, and the file and place of every field.
func TestTracedBuildMatchesOrigins(t *testing.T) {
	var roots []string
	for _, d := range []string{"testdata", filepath.Join("..", "..", "testdata")} {
		roots = append(roots, d)
	}
	scripts, _ := filepath.Glob(filepath.Join("..", "..", "testdata", "script", "*.txtar"))
	for _, s := range scripts {
		a, err := txtar.ParseFile(s)
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(t.TempDir(), filepath.Base(s))
		for _, f := range a.Files {
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		roots = append(roots, dir)
	}
	traced, compared := 0, 0
	for _, root := range roots {
		_ = filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.IsDir() || !kustomize.IsDir(p) {
				return nil
			}
			repo, err := loader.DirRoot(p)
			if err != nil {
				return nil
			}
			slowObjs, slowProbs := kustomize.BuildKustomizationWith(p, repo, false, true, manifest.Decryption{})
			fastObjs, fastProbs := kustomize.BuildKustomizationWith(p, repo, false, false, manifest.Decryption{})
			compared++
			if describe(fastProbs) != describe(slowProbs) {
				t.Errorf("%s: problems differ:\ntraced: %s\norigins: %s", p, describe(fastProbs), describe(slowProbs))
				return nil
			}
			if len(fastObjs) != len(slowObjs) {
				t.Errorf("%s: %d objects traced, %d with origins", p, len(fastObjs), len(slowObjs))
				return nil
			}
			for i := range fastObjs {
				if d := objectDiff(fastObjs[i], slowObjs[i]); d != "" {
					t.Errorf("%s: %s: %s", p, slowObjs[i], d)
				}
			}
			if len(slowObjs) > 0 && ix(p, repo) {
				traced++
			}
			decodedAsWritten(t, p, repo)
			return nil
		})
	}
	if compared < 30 || traced < 15 {
		t.Errorf("compared %d kustomizations, %d of them traced: the fixtures should exercise more", compared, traced)
	}
	t.Logf("compared %d kustomizations, traced %d", compared, traced)
}

// ix reports whether the traced build could say where every object of the
// kustomization at dir came from (no second build).
func ix(dir, root string) bool {
	rfs, err := kustomize.NewRootFS(dir, root, false)
	if err != nil {
		return false
	}
	rm, err := kustomize.RunKustomize(rfs, dir)
	if err != nil {
		return false
	}
	idx := kustomize.NewSourceIndex(rfs, root)
	for _, r := range rm.Resources() {
		if _, ok := idx.Locate(r); !ok {
			return false
		}
	}
	return true
}

func describe(ps []*manifest.Problem) string {
	var out []string
	for _, p := range ps {
		out = append(out, fmt.Sprintf("%s:%d:%d %s %s", p.File, p.Pos.Line, p.Pos.Col, p.Rule, p.Message))
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

// objectDiff compares two built objects: what they hold and where every
// field of it is.
func objectDiff(a, b *manifest.Object) string {
	if a.File != b.File || a.Doc != b.Doc || a.Kustomization != b.Kustomization {
		return fmt.Sprintf("file %s doc %d, want %s doc %d", a.File, a.Doc, b.File, b.Doc)
	}
	if !reflect.DeepEqual(a.Content, b.Content) {
		return fmt.Sprintf("content %v, want %v", a.Content, b.Content)
	}
	for _, path := range leafPaths(b.Content, nil) {
		if fa, fb := a.FileOf(path...), b.FileOf(path...); fa != fb {
			return fmt.Sprintf("%s: file %s, want %s", strings.Join(path, "."), fa, fb)
		}
		as, ae := a.Span(path...)
		bs, be := b.Span(path...)
		if as != bs || ae != be || a.KeyPos(path...) != b.KeyPos(path...) {
			return fmt.Sprintf("%s: at %v-%v, want %v-%v", strings.Join(path, "."), as, ae, bs, be)
		}
	}
	return ""
}

func leafPaths(v any, prefix []string) [][]string {
	switch v := v.(type) {
	case map[string]any:
		var out [][]string
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			out = append(out, leafPaths(v[k], append(slices.Clone(prefix), k))...)
		}
		return out
	case []any:
		var out [][]string
		for i, x := range v {
			out = append(out, leafPaths(x, append(slices.Clone(prefix), fmt.Sprint(i)))...)
		}
		return out
	}
	return [][]string{prefix}
}

// decodedAsWritten checks that decoding a built object's node directly
// gives what writing it out as YAML and reading that back gives.
func decodedAsWritten(t *testing.T, dir, root string) {
	t.Helper()
	rfs, err := kustomize.NewRootFS(dir, root, false)
	if err != nil {
		return
	}
	rm, err := kustomize.RunKustomize(rfs, dir)
	if err != nil {
		return
	}
	for _, r := range rm.Resources() {
		direct, err1 := kustomize.DecodeNode(r.YNode())
		y, err := r.AsYAML()
		if err != nil {
			t.Fatal(err)
		}
		doc, _, err2 := manifest.DecodeYAML(y)
		if err1 != nil || err2 != nil {
			t.Errorf("%s: %v %v", dir, err1, err2)
			continue
		}
		written, _ := manifest.NewDecoder("", nil, manifest.CountNodes(doc)).Value(doc, 0).(map[string]any)
		if !reflect.DeepEqual(direct, written) {
			t.Errorf("%s: %s/%s decodes to\n%v\nwritten out and read back:\n%v", dir, r.GetKind(), r.GetName(), direct, written)
		}
	}
}
