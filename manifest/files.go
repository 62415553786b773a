package manifest

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// MaxFileBytes bounds one input file, and standard input. It is checked
// before a file is read and enforced while reading, so that no input (a
// device, a growing file, an endless pipe) can exhaust memory. A file may
// hold many documents of up to MaxDocumentBytes each.
const MaxFileBytes = 64 << 20

// ErrRefused marks an input kubeplan will not read: a path that resolves
// outside its root, something that is not a regular file, a file over
// MaxFileBytes, a remote kustomize resource. Errors wrap it.
var ErrRefused = errors.New("refused")

// realDir resolves dir's symbolic links to an absolute path.
func realDir(dir string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// inside reports whether the resolved path real is root or below it (both
// absolute and resolved).
func inside(root, real string) bool {
	rel, err := filepath.Rel(root, real)
	return err == nil && !filepath.IsAbs(rel) && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

// resolve follows path's symbolic links and, when root is not empty,
// refuses a path whose real location is outside root.
func resolve(path, root string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		// A link to nowhere: say where it points when that is outside.
		if t, lerr := os.Readlink(abs); lerr == nil && root != "" {
			if !filepath.IsAbs(t) {
				t = filepath.Join(filepath.Dir(abs), t)
			}
			if !inside(root, filepath.Clean(t)) {
				return "", fmt.Errorf("reading %s: %w: it resolves to %s, outside %s (a symbolic link leading out of the directory being read)", path, ErrRefused, filepath.Clean(t), root)
			}
		}
		return "", fmt.Errorf("reading %s: %w", path, err)
	}
	if root != "" && !inside(root, real) {
		return "", fmt.Errorf("reading %s: %w: it resolves to %s, outside %s (a symbolic link or a path leading out of the directory being read)", path, ErrRefused, real, root)
	}
	return real, nil
}

// checkRegular refuses anything but a regular file of at most MaxFileBytes.
func checkRegular(path string, fi fs.FileInfo) error {
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("reading %s: %w: it is %s, not a regular file", path, ErrRefused, modeName(fi.Mode()))
	}
	if fi.Size() > MaxFileBytes {
		return tooBig(path)
	}
	return nil
}

func tooBig(path string) error {
	return fmt.Errorf("reading %s: %w: it is over %d MiB, more than any set of manifests", path, ErrRefused, MaxFileBytes>>20)
}

func modeName(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe (FIFO)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m.IsDir():
		return "a directory"
	}
	return "not a regular file (" + m.String() + ")"
}

// readFile reads path, which must resolve inside root (when root is not
// empty) to a regular file of at most MaxFileBytes. Nothing else is ever
// opened, so a FIFO cannot block and a device cannot be read.
func readFile(path, root string) ([]byte, error) {
	real, err := resolve(path, root)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if err := checkRegular(path, fi); err != nil {
		return nil, err
	}
	// O_NONBLOCK: should a FIFO replace the file after Stat, opening it
	// must not wait for a writer; SameFile below then refuses it.
	f, err := os.OpenFile(real, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	defer f.Close()
	// The file may have been replaced since Stat: check what was opened.
	if ofi, err := f.Stat(); err != nil || !os.SameFile(fi, ofi) {
		return nil, fmt.Errorf("reading %s: %w: it changed while being opened", path, ErrRefused)
	}
	return readLimited(path, f)
}

// readLimited reads r to its end, refusing more than MaxFileBytes.
func readLimited(name string, r io.Reader) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(r, MaxFileBytes+1))
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", name, err)
	}
	if len(data) > MaxFileBytes {
		return nil, tooBig(name)
	}
	return data, nil
}

// repoTop is the top of the git work tree holding the resolved directory
// dir (the nearest directory with a .git entry), or "" when there is none.
func repoTop(dir string) string {
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
