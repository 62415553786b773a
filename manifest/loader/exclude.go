package loader

import "github.com/kubeplan/kubeplan/internal/confine"

// Excluded reports whether path matches one of the exclude globs, as Load
// applies them (see Options.Exclude).
func Excluded(path string, patterns []string) bool { return excluded(path, patterns) }

// DirRoot is the root the kustomizations found by a walk of dir resolve
// inside (see Options.Root): the git work tree holding dir, else the
// working directory when dir is inside it, else dir, symbolic links
// followed. Linting a kustomization under dir with this Root confines it
// as the walk of dir does.
func DirRoot(dir string) (string, error) {
	real, err := confine.RealDir(dir)
	if err != nil {
		return "", err
	}
	return kustomizeRoot("", real), nil
}

// InRepository reports whether dir is inside a git work tree.
func InRepository(dir string) bool {
	real, err := confine.RealDir(dir)
	return err == nil && confine.RepoTop(real) != ""
}
