package main

import (
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"sigs.k8s.io/kustomize/api/krusty"
	"sigs.k8s.io/kustomize/kyaml/filesys"
)

// Scenario (e): the same overlays as one set, built by kustomize in one
// kubeplan plan: oneset/kustomization.yaml puts every overlay, each under
// a name prefix of its own (dev-, prod-) so that nothing collides, into
// namespace oneSetNamespace. It reads exactly the files (a) reads and
// builds them the same way, so (a) / (e) is what running them as 50
// projects costs over one set.
const (
	oneSetNamespace = "bench-oneset"
	oneSetApplySet  = "configmap/oneset"
	oneSetDir       = "oneset"
)

// oneSet is the oneset/ tree, by path in the repository.
func oneSet(s spec) map[string]string {
	files := map[string]string{}
	var top strings.Builder
	fmt.Fprintf(&top, "namespace: %s\nresources:\n", oneSetNamespace)
	for _, o := range s.overlays() {
		name := o.App + "-" + o.Env
		fmt.Fprintf(&top, "  - %s\n", name)
		files[filepath.Join(oneSetDir, name, "kustomization.yaml")] = fmt.Sprintf("namePrefix: %s-\nresources:\n  - ../../%s\n", o.Env, filepath.ToSlash(o.Dir()))
	}
	files[filepath.Join(oneSetDir, "kustomization.yaml")] = top.String()
	return files
}

// kustomizeFloor is the bare kustomize library building every overlay
// in-process, without origin annotations, the least any plan of these
// projects must do besides what (b) does: the best of three.
func kustomizeFloor(repo string, s spec) (time.Duration, error) {
	best := time.Duration(0)
	for range 3 {
		start := time.Now()
		for _, o := range s.overlays() {
			if _, err := krusty.MakeKustomizer(krusty.MakeDefaultOptions()).Run(filesys.MakeFsOnDisk(), filepath.Join(repo, o.Dir())); err != nil {
				return 0, fmt.Errorf("kustomize build %s: %w", o.Dir(), err)
			}
		}
		if d := time.Since(start); best == 0 || d < best {
			best = d
		}
	}
	return best, nil
}
