package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// moduleDir returns the module-cache directory of module@version, downloading
// it through the Go module proxy if needed. It runs in an empty temporary
// directory so the calling module's go.mod and go.sum are never touched.
func moduleDir(modAtVersion string) (string, error) {
	tmp, err := os.MkdirTemp("", "schemagen-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)

	cmd := exec.Command(goTool(), "mod", "download", "-json", modAtVersion)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOWORK=off", "GO111MODULE=on")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	runErr := cmd.Run()

	var info struct{ Dir, Error string }
	if err := json.Unmarshal(stdout.Bytes(), &info); err != nil && runErr == nil {
		return "", fmt.Errorf("go mod download %s: %v", modAtVersion, err)
	}
	if info.Error != "" {
		return "", fmt.Errorf("go mod download %s: %s", modAtVersion, info.Error)
	}
	if runErr != nil {
		return "", fmt.Errorf("go mod download %s: %v: %s", modAtVersion, runErr, stderr.Bytes())
	}
	if info.Dir == "" {
		return "", fmt.Errorf("go mod download %s: no Dir in output", modAtVersion)
	}
	return info.Dir, nil
}

// goTool prefers the go command of the toolchain running `go generate`.
func goTool() string {
	if root := os.Getenv("GOROOT"); root != "" {
		p := filepath.Join(root, "bin", "go")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return "go"
}
