package testkube

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const (
	binaryEnv  = "KUBEPLAN_TESTCLUSTER"
	modulePath = "github.com/kubeplan/kubeplan"
)

// errNoBinary says bin/testcluster was not built.
var errNoBinary = errors.New("bin/testcluster not found: run `make testcluster` (or set " + binaryEnv + ")")

// Binary returns the path of the testcluster binary: $KUBEPLAN_TESTCLUSTER, or
// bin/testcluster at the root of the kubeplan module, found by walking up from
// the working directory.
func Binary() (string, error) {
	if p := os.Getenv(binaryEnv); p != "" {
		if _, err := os.Stat(p); err != nil {
			return "", fmt.Errorf("%s: %w (build it with `make testcluster`)", binaryEnv, err)
		}
		return p, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if isRepoRoot(dir) {
			p := filepath.Join(dir, "bin", "testcluster")
			if _, err := os.Stat(p); err != nil {
				return "", errNoBinary
			}
			return p, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errNoBinary
		}
		dir = parent
	}
}

// isRepoRoot reports whether dir holds the go.mod of the kubeplan module
// (not the nested testcluster module).
func isRepoRoot(dir string) bool {
	f, err := os.Open(filepath.Join(dir, "go.mod"))
	if err != nil {
		return false
	}
	defer f.Close()
	s := bufio.NewScanner(f)
	for s.Scan() {
		if line := strings.TrimSpace(s.Text()); strings.HasPrefix(line, "module ") {
			return strings.TrimSpace(strings.TrimPrefix(line, "module ")) == modulePath
		}
	}
	return false
}

// requireBinary returns the binary, or ends the test: skipped on a developer's
// machine, failed in CI (CI=true), where a missing binary is a broken build.
func requireBinary(t testing.TB) string {
	t.Helper()
	p, err := Binary()
	if err == nil {
		return p
	}
	SkipUnlessCI(t, "testkube: "+err.Error())
	return ""
}
