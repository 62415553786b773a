package confine

import (
	"os"
	"path/filepath"
)

// RepoTop is the top of the git work tree holding the resolved directory
// dir (the nearest directory at or above it with a .git entry), or "" when
// there is none.
func RepoTop(dir string) string {
	for d := dir; ; {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		parent := filepath.Dir(d)
		if parent == d {
			return ""
		}
		d = parent
	}
}

// Checkout is the root of a run, resolved: the top of the git work tree
// holding the working directory, else the working directory itself. The
// workflow chose the working directory, so it and the directories above it
// are trusted; what is below is the pull request's.
func Checkout() (string, error) {
	wd, err := RealDir(".")
	if err != nil {
		return "", err
	}
	if top := RepoTop(wd); top != "" {
		return top, nil
	}
	return wd, nil
}

// RootFor is the root a path named on the command line (or by a file in
// the checkout) must resolve inside: the checkout when the path, as named
// and before any link is followed, lies in it; "" when it lies elsewhere
// (the workflow named a place outside the checkout on purpose).
func RootFor(path string) string {
	root, err := Checkout()
	if err != nil {
		return ""
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return ""
	}
	// abs is relative to the working directory as the shell names it;
	// the same relative path from the resolved one is where it lies.
	named := abs
	if wd, err := os.Getwd(); err == nil {
		if real, err := RealDir(wd); err == nil {
			if rel, err := filepath.Rel(wd, abs); err == nil {
				named = filepath.Join(real, rel)
			}
		}
	}
	if Inside(root, named) {
		return root
	}
	return ""
}
