package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// The kubeconform the benchmark compares against.
const (
	kubeconformModule  = "github.com/yannh/kubeconform"
	kubeconformVersion = "v0.8.0"
	kubeconformPkg     = kubeconformModule + "/cmd/kubeconform"
)

// buildKubeplan rebuilds bin/kubeplan from the working tree.
func buildKubeplan(root string) (string, error) {
	bin := filepath.Join(root, "bin", "kubeplan")
	if err := goCmd(root, nil, "build", "-o", bin, "./cmd/kubeplan"); err != nil {
		return "", fmt.Errorf("building kubeplan: %w", err)
	}
	return bin, nil
}

// installKubeconform installs kubeconform into bin/ from the Go module proxy
// unless bin/kubeconform already is that version.
func installKubeconform(root string) (string, error) {
	bin := filepath.Join(root, "bin", "kubeconform")
	if v, err := moduleVersion(root, bin); err == nil && v == kubeconformVersion {
		return bin, nil
	}
	env := []string{"GOBIN=" + filepath.Dir(bin)}
	if err := goCmd(root, env, "install", kubeconformPkg+"@"+kubeconformVersion); err != nil {
		return "", fmt.Errorf("installing kubeconform: %w", err)
	}
	if v, err := moduleVersion(root, bin); err != nil || v != kubeconformVersion {
		return "", fmt.Errorf("installed %s is %q, not %s (%v)", bin, v, kubeconformVersion, err)
	}
	return bin, nil
}

// moduleVersion reads the main module version recorded in a Go binary.
func moduleVersion(root, bin string) (string, error) {
	if _, err := os.Stat(bin); err != nil {
		return "", err
	}
	out, err := exec.Command(goTool(), "version", "-m", bin).Output()
	if err != nil {
		return "", err
	}
	for _, line := range strings.Split(string(out), "\n") {
		f := strings.Fields(line)
		if len(f) >= 3 && f[0] == "mod" && f[1] == kubeconformModule {
			return f[2], nil
		}
	}
	return "", fmt.Errorf("%s: no module %s in its build info", bin, kubeconformModule)
}

// goCmd runs the go command in dir, showing its output only on failure.
func goCmd(dir string, env []string, args ...string) error {
	cmd := exec.Command(goTool(), args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), env...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("go %s: %w\n%s", strings.Join(args, " "), err, out.String())
	}
	return nil
}

// goTool is the go command of the toolchain running this program when it
// can be found, else "go" from PATH.
func goTool() string {
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
