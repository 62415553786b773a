package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// flatNamespace is where the flat set goes: all of it, one ApplySet.
const flatNamespace = "bench-flat"

// writeFlat renders every overlay of the repository at repo with kustomize
// and writes the objects into dir, one file per overlay, as one set for
// flatNamespace: each overlay's names (all of which start with the app's
// name) get its environment after the app's name, so that dev and prod do
// not collide, references included. It returns how many objects it wrote.
func writeFlat(repo, dir string, s spec) (int, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	k := krusty.MakeKustomizer(krusty.MakeDefaultOptions())
	fs := filesys.MakeFsOnDisk()
	total := 0
	for _, o := range s.overlays() {
		rm, err := k.Run(fs, filepath.Join(repo, o.Dir()))
		if err != nil {
			return 0, fmt.Errorf("kustomize build %s: %w", o.Dir(), err)
		}
		y, err := rm.AsYaml()
		if err != nil {
			return 0, err
		}
		if rm.Size() != s.objectsPerProject() {
			return 0, fmt.Errorf("%s rendered %d objects, want %d", o.Dir(), rm.Size(), s.objectsPerProject())
		}
		total += rm.Size()
		if err := os.WriteFile(filepath.Join(dir, o.Namespace()+".yaml"), []byte(rename(string(y), o)), 0o644); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// rename moves one overlay's rendered objects into the flat set: its
// namespace becomes flatNamespace, and "APP-" becomes "APP-ENV-" in every
// name, reference and selector.
func rename(text string, o overlay) string {
	text = strings.ReplaceAll(text, "namespace: "+o.Namespace()+"\n", "namespace: "+flatNamespace+"\n")
	return strings.ReplaceAll(text, o.App+"-", o.App+"-"+o.Env+"-")
}
