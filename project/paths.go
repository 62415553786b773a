package project

import (
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
)

// ForPaths returns the projects of ps (Load's, their Path and Files
// relative to root) that a lint of paths covers, in the order of ps, and
// the paths that none covers, in their order, to be linted as they are.
//
// A directory covers the projects in it or below it and the projects
// that read a file in it (the overlays using a base there, the projects
// of a chart there); a file covers the projects that read it (a values
// file only the projects that name it, a patch or a template all the
// projects that use it). "-", a path that does not exist and a path
// outside root (symbolic links followed) cover none.
func ForPaths(root string, ps []Project, paths []string) (selected []Project, rest []string) {
	rootAbs, err := realAbs(root)
	if err != nil {
		return nil, paths
	}
	taken := make([]bool, len(ps))
	for _, p := range paths {
		covered := false
		if rel, dir, ok := relPath(rootAbs, p); ok {
			for i, pr := range ps {
				if covers(pr, rel, dir) {
					covered, taken[i] = true, true
				}
			}
		}
		if !covered {
			rest = append(rest, p)
		}
	}
	for i, pr := range ps {
		if taken[i] {
			selected = append(selected, pr)
		}
	}
	return selected, rest
}

// covers reports whether a lint of rel (relative to the root, with "/"; a
// directory when dir) covers pr.
func covers(pr Project, rel string, dir bool) bool {
	if !dir {
		return slices.Contains(pr.Files, rel)
	}
	below := func(p string) bool { return rel == "." || p == rel || strings.HasPrefix(p, rel+"/") }
	if below(pr.Path) {
		return true
	}
	return slices.ContainsFunc(pr.Files, below)
}

// relPath is p relative to rootAbs, with "/", and whether it is a
// directory; false when p is "-", does not exist or is outside rootAbs.
func relPath(rootAbs, p string) (rel string, dir bool, ok bool) {
	if p == "-" {
		return "", false, false
	}
	abs, err := realAbs(p)
	if err != nil || !inTree(rootAbs, abs) {
		return "", false, false
	}
	r, err := filepath.Rel(rootAbs, abs)
	if err != nil {
		return "", false, false
	}
	return path.Clean(filepath.ToSlash(r)), isDir(abs), true
}

// realAbs is p absolute, symbolic links followed.
func realAbs(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// isDir reports whether p is a directory.
func isDir(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.IsDir()
}
