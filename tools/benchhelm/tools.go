package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The peers the benchmark compares against, built from the Go module proxy.
var (
	kubeconform = goTool{Module: "github.com/yannh/kubeconform", Pkg: "github.com/yannh/kubeconform/cmd/kubeconform", Version: "v0.8.0", Bin: "bin/kubeconform"}
	helm        = goTool{Module: "helm.sh/helm/v4", Pkg: "helm.sh/helm/v4/cmd/helm", Version: "v4.3.1", Bin: ".bench/helm/bin/helm"}
)

// goTool is a command installed with go install MODULE/...@VERSION.
type goTool struct {
	Module, Pkg, Version string
	// Bin is where it is installed, relative to the module root.
	Bin string
}

// install installs t under root unless the binary there already is that
// version, and returns its path.
func (t goTool) install(root string) (string, error) {
	bin := filepath.Join(root, t.Bin)
	if v, err := t.installed(bin); err == nil && v == t.Version {
		return bin, nil
	}
	env := []string{"GOBIN=" + filepath.Dir(bin)}
	if err := goCmd(root, env, "install", t.Pkg+"@"+t.Version); err != nil {
		return "", fmt.Errorf("installing %s: %w", t.Pkg, err)
	}
	if v, err := t.installed(bin); err != nil || v != t.Version {
		return "", fmt.Errorf("installed %s is %q, not %s (%v)", bin, v, t.Version, err)
	}
	return bin, nil
}

// installed reads the main module version recorded in the binary bin.
func (t goTool) installed(bin string) (string, error) {
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

// buildKubeplan rebuilds bin/kubeplan from the working tree.
func buildKubeplan(root string) (string, error) {
	bin := filepath.Join(root, "bin", "kubeplan")
	if err := goCmd(root, nil, "build", "-o", bin, "./cmd/kubeplan"); err != nil {
		return "", fmt.Errorf("building kubeplan: %w", err)
	}
	return bin, nil
}

// goCmd runs the go command in dir, showing its output only on failure.
func goCmd(dir string, env []string, args ...string) error {
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
		if p := filepath.Join(gr, "bin", "go"); fileExists(p) {
			return p
		}
	}
	return "go"
}

func fileExists(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && !fi.IsDir()
}
