package kustomize

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/manifest"
	yaml "go.yaml.in/yaml/v3"
)

// Where a built object came from, found without kustomize's origin
// annotations.
//
// Asking kustomize for origin annotations (buildMetadata: [originAnnotations])
// also makes it record every transformer on every object, as YAML, which
// makes a build three to four times slower. So a kustomization is built
// without them first, and each object is traced back here, from what the
// build read: the documents of every file a kustomization read lists under
// resources (or bases), and the entries of its configMapGenerator and
// secretGenerator. An object is traced when exactly one document of its
// kind has a name the built name contains (namePrefix and nameSuffix keep
// it inside), taking the longest, or, for a ConfigMap or Secret no document
// accounts for, exactly one generator entry that creates it does (entries
// with behavior: merge only add to it). Anything else (a tie, a
// generators: plugin, an object nothing accounts for) means the build is
// made again with origin annotations, which say it for sure.

// sourceIndex is what a build read that objects come from.
type sourceIndex struct {
	docs []*manifest.Object // documents of resource files, File as the user names it
	gens []genEntry         // generator entries
	// unsure is set when the build used what the index cannot follow.
	unsure bool
}

// genEntry is one configMapGenerator or secretGenerator entry.
type genEntry struct {
	kind, name string
	behavior   string // create (""), merge or replace
	kfile      string // the kustomization, as the user names it
}

// newSourceIndex reads the kustomizations the build read (rfs) and the
// resource files they list.
func newSourceIndex(rfs *rootFS, root string) *sourceIndex {
	ix := &sourceIndex{}
	seen := map[string]bool{}
	for _, k := range rfs.kustomizations {
		// A base two overlays use is read twice: indexed once.
		if seen[k.File] {
			continue
		}
		seen[k.File] = true
		doc, _, err := manifest.DecodeYAML(k.Data)
		if err != nil || doc == nil || len(doc.Content) == 0 || doc.Content[0].Kind != yaml.MappingNode {
			ix.unsure = true
			continue
		}
		top := doc.Content[0]
		for i := 0; i+1 < len(top.Content); i += 2 {
			key, val := top.Content[i].Value, top.Content[i+1]
			switch key {
			case "helmCharts", "helmGlobals":
				// rendered by kubeplan: the rendered objects are the documents
				if rfs.helm == nil || rfs.helm.docs[k.File] == nil && key == "helmCharts" && len(val.Content) > 0 {
					ix.unsure = true
				}
				if key == "helmCharts" && rfs.helm != nil {
					ix.docs = append(ix.docs, rfs.helm.docs[k.File]...)
				}
			case "generators", "transformers", "replacements", "validators":
				if len(val.Content) > 0 {
					ix.unsure = true // plugins and replacements may make or rename anything
				}
			case "resources", "bases":
				for _, n := range scalars(val) {
					p := filepath.Join(k.dir, n.Value)
					if seen[p] || isDir(p) {
						continue
					}
					seen[p] = true
					data, err := confine.ReadFile(p, root)
					if err != nil {
						ix.unsure = true
						continue
					}
					objs, _ := manifest.Parse(rfs.display(p), data)
					ix.docs = append(ix.docs, objs...)
				}
			case "configMapGenerator", "secretGenerator":
				kind := map[string]string{"configMapGenerator": "ConfigMap", "secretGenerator": "Secret"}[key]
				for _, item := range val.Content {
					if _, n := manifest.MapEntry(item, "name"); n != nil {
						g := genEntry{kind: kind, name: n.Value, kfile: k.File}
						if _, b := manifest.MapEntry(item, "behavior"); b != nil {
							g.behavior = b.Value
						}
						ix.gens = append(ix.gens, g)
					}
				}
			}
		}
	}
	return ix
}

// find traces a built object (kind and name as built): the document it
// came from, or the generator entry that made it; ok is false when it
// cannot say for sure.
func (ix *sourceIndex) find(kind, name string) (doc *manifest.Object, gen *genEntry, ok bool) {
	var ties int
	for _, o := range ix.docs {
		if o.Kind != kind || !strings.Contains(name, o.Name) {
			continue
		}
		switch {
		case doc == nil || len(o.Name) > len(doc.Name):
			doc, ties = o, 0
		case len(o.Name) == len(doc.Name):
			ties++
		}
	}
	// An entry that merges into an object made elsewhere leaves it where
	// it was made (as kustomize's origin does); one that replaces it is
	// not followed.
	for i, g := range ix.gens {
		if g.kind != kind || !strings.Contains(name, g.name) {
			continue
		}
		switch g.behavior {
		case "merge":
			continue
		case "", "create":
		default:
			return nil, nil, false
		}
		if gen != nil || doc != nil {
			return nil, nil, false // two generators, or a generator and a document
		}
		gen = &ix.gens[i]
	}
	if ties > 0 || doc == nil && gen == nil {
		return nil, nil, false
	}
	return doc, gen, true
}

func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
