package manifest

import (
	"io"
	"io/fs"
	"os"

	"github.com/kubeplan/kubeplan/internal/confine"
)

// MaxFileBytes bounds one input file, and standard input. It is checked
// before a file is read and enforced while reading, so that no input (a
// device, a growing file, an endless pipe) can exhaust memory. A file may
// hold many documents of up to MaxDocumentBytes each.
const MaxFileBytes = confine.MaxFileBytes

// ErrRefused marks an input kubeplan will not read: a path that resolves
// outside its root, something that is not a regular file, a file over
// MaxFileBytes, a remote kustomize resource. Errors wrap it.
var ErrRefused = confine.ErrRefused

// The package reads every file through internal/confine; these names keep
// its call sites short.

func realDir(dir string) (string, error)                   { return confine.RealDir(dir) }
func inside(root, real string) bool                        { return confine.Inside(root, real) }
func resolve(path, root string) (string, error)            { return confine.Resolve(path, root) }
func checkRegular(path string, fi fs.FileInfo) error       { return confine.CheckRegular(path, fi) }
func tooBig(path string) error                             { return confine.TooBig(path) }
func readFile(path, root string) ([]byte, error)           { return confine.ReadFile(path, root) }
func readLimited(name string, r io.Reader) ([]byte, error) { return confine.ReadLimited(name, r) }
func repoTop(dir string) string                            { return confine.RepoTop(dir) }

// FileExists reports whether p names something that is not a directory.
func FileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}
