package benchkit

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// GoTool is a peer command a benchmark compares against, installed with
// go install PKG@VERSION from the Go module proxy (never at test time).
type GoTool struct {
	Module, Pkg, Version string
	// Bin is where it is installed, relative to the module root.
	Bin string
}

// Kubeconform is the kubeconform the lint and helm benchmarks use.
var Kubeconform = GoTool{Module: "github.com/yannh/kubeconform", Pkg: "github.com/yannh/kubeconform/cmd/kubeconform", Version: "v0.8.0", Bin: "bin/kubeconform"}

// Install installs t under root unless the binary there already is that
// version, and returns its path.
func (t GoTool) Install(root string) (string, error) {
	bin := filepath.Join(root, t.Bin)
	if v, err := t.installed(bin); err == nil && v == t.Version {
		return bin, nil
	}
	env := []string{"GOBIN=" + filepath.Dir(bin)}
	if err := Go(root, env, "install", t.Pkg+"@"+t.Version); err != nil {
		return "", fmt.Errorf("installing %s: %w", t.Pkg, err)
	}
	if v, err := t.installed(bin); err != nil || v != t.Version {
		return "", fmt.Errorf("installed %s is %q, not %s (%v)", bin, v, t.Version, err)
	}
	return bin, nil
}

// installed reads the main module version recorded in the binary bin.
func (t GoTool) installed(bin string) (string, error) {
	if _, err := os.Stat(bin); err != nil {
		return "", err
	}
	out, err := exec.Command(goCommand(), "version", "-m", bin).Output()
	if err != nil {
		return "", fmt.Errorf("go version -m %s: %w", bin, err)
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "mod" && f[1] == t.Module {
			return f[2], nil
		}
	}
	return "", fmt.Errorf("%s: no module %s in its build info", bin, t.Module)
}

// BuildKubeplan rebuilds bin/kubeplan from the working tree under root,
// as the releases build it: CGO_ENABLED=0 (.goreleaser.yaml, make image).
// With cgo, kustomize's plugin loader links Go's plugin package, which
// keeps every method of every type: 114 MiB instead of 85 (make
// bench-size), a binary no user runs.
func BuildKubeplan(root string) (string, error) {
	bin := filepath.Join(root, "bin", "kubeplan")
	if err := Go(root, []string{"CGO_ENABLED=0"}, "build", "-o", bin, "./cmd/kubeplan"); err != nil {
		return "", fmt.Errorf("building kubeplan: %w", err)
	}
	return bin, nil
}

// Go runs the go command in dir, showing its output only on failure.
func Go(dir string, env []string, args ...string) error {
	cmd := exec.Command(goCommand(), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out.String())
	}
	return nil
}

// goCommand is the go command of the toolchain running this program when
// it can be found, else "go" from PATH.
func goCommand() string {
	if gr := os.Getenv("GOROOT"); gr != "" {
		if p := filepath.Join(gr, "bin", "go"); FileExists(p) {
			return p
		}
	}
	return "go"
}

// FileExists reports whether p is a file (not a directory).
func FileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}
