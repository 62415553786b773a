package confine

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// ErrRefused marks a path kubeplan will not read: one that resolves outside
// its root, something that is not a regular file, a file over its size
// limit. Errors wrap it.
var ErrRefused = errors.New("refused")

// RealDir resolves dir's symbolic links to an absolute path.
func RealDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// Inside reports whether the path p is root or below it. Both are taken as
// they are (absolute and clean, resolved when the caller needs that).
func Inside(root, p string) bool {
	rel, err := filepath.Rel(root, p)
	return err == nil && !filepath.IsAbs(rel) && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// Resolve follows path's symbolic links and, when root is not empty,
// refuses a path whose real location is outside root (resolved, absolute).
// Where a path leads is worked out the same way whether or not its target
// exists, so a refusal does not tell whether a file outside root exists.
func Resolve(path, root string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		// Where it would lead, had it existed: outside is refused in the
		// same words as an existing file outside.
		if root != "" {
			if t := target(abs); !Inside(root, t) {
				return "", outside(path, t, root)
			}
		}
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	if root != "" && !Inside(root, real) {
		return "", outside(path, real, root)
	}
	return real, nil
}

// Within checks that path, once its links are followed, is inside root
// (resolved), without requiring it to exist: a path that does not exist is
// no error here (reading it will say so), one that leads outside is.
func Within(path, root string) error {
	_, err := Resolve(path, root)
	if err != nil && !errors.Is(err, ErrRefused) && errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	return err
}

func outside(path, real, root string) error {
	return fmt.Errorf("reading %s: %w: it resolves to %s, outside %s (kubeplan never follows a symbolic link or a path out of it; keep the file inside)", path, ErrRefused, real, root)
}

// maxLinks bounds the links target follows, as the kernel does.
const maxLinks = 40

// target is where abs leads, its links followed component by component as
// far as they exist: the resolved path of an existing file, or of a link
// to nowhere where it points. Only names are looked at (Lstat, Readlink),
// nothing is opened, and a missing component is kept as named, so where a
// path leads does not depend on whether its target exists.
func target(abs string) string {
	todo := splitPath(abs)
	cur := string(filepath.Separator)
	links := 0
	for len(todo) > 0 {
		c := todo[0]
		todo = todo[1:]
		switch c {
		case "", ".":
			continue
		case "..":
			cur = filepath.Dir(cur)
			continue
		}
		next := filepath.Join(cur, c)
		fi, err := os.Lstat(next)
		if err != nil || fi.Mode()&fs.ModeSymlink == 0 || links >= maxLinks {
			cur = next
			continue
		}
		t, err := os.Readlink(next)
		if err != nil {
			cur = next
			continue
		}
		links++
		if filepath.IsAbs(t) {
			cur = string(filepath.Separator)
		}
		todo = append(splitPath(t), todo...)
	}
	return cur
}

func splitPath(p string) []string {
	return strings.Split(filepath.ToSlash(p), "/")
}
