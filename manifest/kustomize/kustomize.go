package kustomize

import (
	"bytes"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/api/resmap"
	"sigs.k8s.io/kustomize/api/resource"
	"sigs.k8s.io/kustomize/api/types"
	"sigs.k8s.io/kustomize/kyaml/filesys"
	kyaml "sigs.k8s.io/kustomize/kyaml/yaml"
)

const originAnnotation = "config.kubernetes.io/origin"

func IsDir(dir string) bool {
	return kustomizationFile(dir) != ""
}

func kustomizationFile(dir string) string {
	for _, n := range manifest.KustomizationNames() {
		if manifest.FileExists(filepath.Join(dir, n)) {
			return filepath.Join(dir, n)
		}
	}
	return ""
}

// originFS is the disk with one change: the top kustomization asks for
// origin annotations, so every built object can be traced to its file.
type originFS struct {
	filesys.FileSystem
	top string
}

func (f originFS) ReadFile(path string) ([]byte, error) {
	data, err := f.FileSystem.ReadFile(path)
	if err != nil || filepath.Clean(path) != f.top {
		return data, err
	}
	var k map[string]any
	if kyaml.Unmarshal(data, &k) != nil || k == nil {
		return data, nil
	}
	if bm, ok := k["buildMetadata"].([]any); ok {
		for _, v := range bm {
			if v == "originAnnotations" {
				return data, nil
			}
		}
		k["buildMetadata"] = append(bm, "originAnnotations")
	} else {
		k["buildMetadata"] = []any{"originAnnotations"}
	}
	return kyaml.Marshal(k)
}

// Build runs kustomize in-process on dir and maps every object
// back to the document it came from, so positions point into the user's
// files rather than into kustomize's output: traced from what the build
// read when it can say for sure (see sourceIndex), else from kustomize's
// origin annotations, asked for in a second build.
//
// Every file the build reads must resolve inside root (see rootFS), and
// remote resources are refused before kustomize could fetch them.
func Build(dir, root string, allowRemote bool, dec manifest.Decryption) ([]*manifest.Object, []*manifest.Problem) {
	return buildKustomizationWith(dir, root, allowRemote, false, dec)
}

// buildKustomizationWith is Build; withOrigins skips the
// first, traced, build (for tests that compare the two).
func buildKustomizationWith(dir, root string, allowRemote, withOrigins bool, dec manifest.Decryption) ([]*manifest.Object, []*manifest.Problem) {
	kfile := kustomizationFile(dir)
	fail := func(err error) ([]*manifest.Object, []*manifest.Problem) {
		return nil, []*manifest.Problem{{File: kfile, Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "kustomize", Message: err.Error()}}
	}
	abs, err := filepath.Abs(kfile)
	if err != nil {
		return fail(err)
	}
	raw, err := confine.ReadFile(kfile, root)
	if err != nil {
		return fail(err)
	}
	// A kustomization that asks for origin annotations keeps them.
	userAsked := bytes.Contains(raw, []byte("originAnnotations"))
	if !withOrigins && !userAsked {
		rfs, err := newRootFS(dir, root, allowRemote)
		if err != nil {
			return fail(err)
		}
		rfs.dec = dec
		rm, err := runKustomize(rfs, dir)
		if err != nil {
			return nil, rfs.buildProblems(kfile, err)
		}
		ix := newSourceIndex(rfs, root)
		if objs, probs, ok := built(dir, kfile, root, rfs, rm.Resources(), ix.Locate); ok {
			return rfs.markEncrypted(objs, probs)
		}
	}
	rfs, err := newRootFS(dir, root, allowRemote)
	if err != nil {
		return fail(err)
	}
	rfs.dec = dec
	rm, err := runKustomize(originFS{FileSystem: rfs, top: abs}, dir)
	if err != nil {
		return nil, rfs.buildProblems(kfile, err)
	}
	objs, probs, _ := built(dir, kfile, root, rfs, rm.Resources(), func(r *resource.Resource) (source, bool) {
		src := originSource(dir, r)
		src.dropOrigin = !userAsked
		return src, true
	})
	return rfs.markEncrypted(objs, probs)
}

func runKustomize(fsys filesys.FileSystem, dir string) (resmap.ResMap, error) {
	if !filepath.IsAbs(dir) {
		// kustomize takes a relative target that looks like an scp-style
		// git address ("git@host:org/repo") for one and clones it.
		dir = "." + string(filepath.Separator) + dir
	}
	opts := krusty.MakeDefaultOptions()
	opts.LoadRestrictions = types.LoadRestrictionsRootOnly
	return krusty.MakeKustomizer(opts).Run(fsys, dir)
}

// source is where a built object came from: a file (a document in it is
// found by the object's kind and name), or a generator entry in a
// kustomization file (genKind ConfigMapGenerator or SecretGenerator); both
// "" when unknown (a plugin's object: it is shown at the kustomization).
type source struct {
	file    string
	doc     *manifest.Object // the document in file, when already known
	genFile string
	genKind string
	// dropOrigin drops the origin annotation kubeplan asked for.
	dropOrigin bool
}

// originSource reads kustomize's origin annotation of r.
func originSource(dir string, r *resource.Resource) source {
	origin, _ := r.GetOrigin()
	switch {
	case origin == nil || origin.Repo != "":
		return source{}
	case origin.Path != "":
		return source{file: filepath.Join(dir, origin.Path)}
	case origin.ConfiguredIn != "":
		return source{genFile: filepath.Join(dir, origin.ConfiguredIn), genKind: origin.ConfiguredBy.Kind}
	}
	return source{}
}

// Locate traces r in the index; false when it cannot say for sure.
func (ix *sourceIndex) Locate(r *resource.Resource) (source, bool) {
	if ix.unsure {
		return source{}, false
	}
	doc, gen, ok := ix.find(r.GetKind(), r.GetName())
	switch {
	case !ok:
		return source{}, false
	case gen != nil:
		return source{genFile: gen.kfile, genKind: gen.kind + "Generator"}, true
	}
	return source{file: doc.File, doc: doc}, true
}

// built turns kustomize's output into objects, each pointed at its source
// by locate; false as soon as locate cannot say.
func built(dir, kfile, root string, rfs *rootFS, rs []*resource.Resource, locate func(*resource.Resource) (source, bool)) ([]*manifest.Object, []*manifest.Problem, bool) {
	origins := map[string][]*manifest.Object{}
	cache := &overlayCache{}
	var objs []*manifest.Object
	var probs []*manifest.Problem
	for i, r := range rs {
		at, ok := locate(r)
		if !ok {
			return nil, nil, false
		}
		content, err := decodeNode(r.YNode())
		if err != nil {
			probs = append(probs, &manifest.Problem{File: kfile, Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "kustomize", Message: err.Error()})
			continue
		}
		if at.dropOrigin {
			dropAnnotation(content, originAnnotation)
		}
		file, src := kfile, (*manifest.Object)(nil)
		if at.file != "" {
			file = at.file
			src = at.doc
			if h, ok := rfs.helmOrigin(file, r.GetKind(), r.GetName()); ok && src == nil {
				src = h // rendered from a helmCharts entry: the template
				if h != nil {
					file = h.File
				}
			}
			if src == nil {
				src = findOrigin(origins, file, root, r)
			}
		}
		o := &manifest.Object{File: file, Doc: i, Kustomization: dir, Content: content}
		if src != nil {
			o.Kept = helm.CarriedKept(src, content) // a chart's (helmCharts), as it is still
		}
		if src == nil && at.genFile != "" && generated(o, at.genFile, root, at.genKind) {
			o.Doc = 0
		}
		if src != nil {
			o.Doc = src.Doc
			o.Root, o.Lines = src.Tree()
		}
		if p := o.FillIdentity(); p != nil {
			probs = append(probs, p)
			continue
		}
		if src != nil {
			blameOverlays(o, src, rfs, root, cache)
		}
		objs = append(objs, o)
	}
	if rfs.helm != nil {
		probs = append(probs, rfs.helm.probs...)
	}
	return objs, append(probs, deprecatedProblems(rfs.kustomizations)...), true
}

// findOrigin finds the document in file that r was made from (by its
// original kind and name, before kustomize renamed it).
func findOrigin(cache map[string][]*manifest.Object, file, root string, r *resource.Resource) *manifest.Object {
	objs, ok := cache[file]
	if !ok {
		data, err := confine.ReadFile(file, root)
		if err == nil {
			objs, _ = manifest.Parse(file, data)
		}
		cache[file] = objs
	}
	// kustomize has dropped the original name by now; namePrefix and
	// nameSuffix keep it inside the new one, so take the longest match.
	kind, name := r.GetKind(), r.GetName()
	var best *manifest.Object
	for _, o := range objs {
		if o.Kind == kind && strings.Contains(name, o.Name) && (best == nil || len(o.Name) > len(best.Name)) {
			best = o
		}
	}
	return best
}

func dropAnnotation(content map[string]any, key string) {
	md, _ := content["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	if ann == nil {
		return
	}
	delete(ann, key)
	if len(ann) == 0 {
		delete(md, "annotations")
	}
}

// kustomizeProblem reports a failed build: a remote resource at its entry
// in the kustomization that names it, a refused file with our message,
// anything else with kustomize's.
func kustomizeProblem(kfile string, rfs *rootFS, err error) *manifest.Problem {
	if r := rfs.remote; r != nil {
		return &manifest.Problem{File: r.file, Pos: r.Pos, Rule: "kustomize", Message: r.message(rfs.allowRemote)}
	}
	if rfs.refused != nil {
		file, pos, ok := rfs.refusedAt()
		if !ok {
			file, pos = kfile, manifest.Pos{Line: 1, Col: 1}
		}
		return &manifest.Problem{File: file, Pos: pos, Rule: "kustomize", Message: "kustomize build: " + kustomizeError(rfs.refused)}
	}
	if p, ok := rfs.networkProblem(kfile, err); ok {
		return p
	}
	if missing := missingFile(err.Error()); missing != "" {
		// A file an entry names does not exist: one line at that entry, in
		// the kustomization of the tree that names it.
		if k, e, ok := innermostEntry(rfs.kustomizations, missing); ok {
			return &manifest.Problem{File: k.File, Pos: manifest.Pos{Line: e.node.Line, Col: e.node.Column}, Rule: "kustomize",
				Message: fmt.Sprintf("%s does not exist: fix or remove this entry", e.path)}
		}
	}
	return &manifest.Problem{File: kfile, Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "kustomize", Message: "kustomize build failed: " + kustomizeError(err)}
}

// missingFile is the path kustomize could not find, from its error: the
// path it was looking for ("evalsymlink failure on 'PATH'"), else the one
// that failed (lstat names the first directory missing on the way).
func missingFile(msg string) string {
	if !strings.Contains(msg, "no such file or directory") {
		return ""
	}
	if m := lookedFor().FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	if m := missingPath().FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	return ""
}

var (
	lookedFor = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`evalsymlink failure on '([^']+)' : lstat [^:']+: no such file or directory`)
	})
	missingPath = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`lstat ([^:']+): no such file or directory`) })
)

// kustomizeError formats kustomize's error text on one line.
func kustomizeError(err error) string {
	return strings.ReplaceAll(fmt.Sprint(err), "\n", " ")
}

// decodeNode decodes a built object's node with the same scalar rules as
// files, without writing it out as YAML and reading it again.
func decodeNode(n *kyaml.Node) (map[string]any, error) {
	if n == nil {
		return nil, fmt.Errorf("kustomize produced an empty document")
	}
	d := manifest.NewDecoder("", nil, manifest.CountNodes(n))
	m, _ := d.Value(n, 0).(map[string]any)
	if m == nil {
		return nil, fmt.Errorf("kustomize produced a document that is not a mapping")
	}
	return m, nil
}
