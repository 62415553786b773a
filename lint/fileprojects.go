package lint

import (
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/project"
)

// fileProjects maps a file argument to the kustomize and helm projects
// that read it: a patch, a Component's file or a base's manifest changed
// in a commit is linted by building the overlays that use it (the
// pre-commit hook passes changed files one by one), and a chart's template
// or values file by rendering the chart, never as a manifest of its own.
type fileProjects struct {
	load  loader.Options
	seen  map[string]bool              // project directories already grouped
	found map[string][]project.Project // by repository root
}

// of returns the groups for file p: one per kustomize project that reads
// it and was not grouped yet (an empty, non-nil slice when all were), or
// nil when p is not a file read by a kustomization (it is linted as it is).
func (f *fileProjects) of(p string) ([]group, error) {
	if p == "-" {
		return nil, nil
	}
	fi, err := os.Stat(p)
	if err != nil || !fi.Mode().IsRegular() {
		return nil, nil // Collect reports it
	}
	// The projects that read a file are searched for in its git
	// repository or, outside any, in the working directory holding it;
	// elsewhere (a file in /tmp) it is linted as it is, rather than by
	// walking whatever tree its directory is in.
	if !loader.InRepository(filepath.Dir(p)) && !inWorkingDir(p) {
		return nil, nil
	}
	root, err := loader.DirRoot(filepath.Dir(p))
	if err != nil {
		return nil, nil
	}
	ps, ok := f.found[root]
	if !ok {
		if ps, _, err = project.Find(root, project.Options{Exclude: f.load.Exclude, BuildsOnly: true}); err != nil {
			return nil, err
		}
		f.found[root] = ps
	}
	real, err := filepath.EvalSymlinks(p)
	if err != nil {
		return nil, nil
	}
	abs, err := filepath.Abs(real)
	if err != nil {
		return nil, nil
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil {
		return nil, nil
	}
	rel = filepath.ToSlash(rel)
	out := []group{}
	reads := false
	for _, pr := range ps {
		if pr.Kind == project.Manifests || !slices.Contains(pr.Files, rel) {
			continue
		}
		reads = true
		dir := relToWD(filepath.Join(root, filepath.FromSlash(pr.Path)))
		if f.seen[dir] {
			continue
		}
		f.seen[dir] = true
		load := f.load
		if load.Root == "" {
			load.Root = root
		}
		if pr.Kind == project.Helm {
			out = append(out, chartGroup(root, pr, load))
			continue
		}
		out = append(out, group{paths: []string{dir}, load: load, kustomizedCRDs: mentionCRD(root, pr.Files)})
	}
	if !reads {
		if generatorInput(p) {
			return []group{}, nil // a dotenv or INI file nothing reads: not a manifest
		}
		return nil, nil
	}
	return out, nil
}

// generatorInput reports whether p is a dotenv or INI file (a generator
// input, what the pre-commit hook passes for kustomizations to be linted)
// in the clear: when no kustomization reads it, it is nothing to lint. A
// SOPS-encrypted one is linted as it is, which verifies its MAC.
func generatorInput(p string) bool {
	switch strings.ToLower(filepath.Ext(p)) {
	case ".env", ".ini":
	default:
		return false
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return false
	}
	_, encrypted := sops.Detect(data)
	return !encrypted
}

// relToWD names dir relative to the working directory when it is below it,
// as findings name files.
func relToWD(dir string) string {
	wd, err := os.Getwd()
	if err != nil {
		return dir
	}
	if r, err := filepath.Rel(wd, dir); err == nil && r != ".." && !filepath.IsAbs(r) && (len(r) < 3 || r[:3] != "../") {
		return r
	}
	return dir
}

// inWorkingDir reports whether path is below the working directory.
func inWorkingDir(path string) bool {
	wd, err1 := os.Getwd()
	abs, err2 := filepath.Abs(path)
	if err1 != nil || err2 != nil {
		return false
	}
	rel, err := filepath.Rel(wd, abs)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, "../")
}
