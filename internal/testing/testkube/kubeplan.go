package testkube

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
)

// built is the kubeplan binary behind Kubeplan.
var built struct {
	once     sync.Once
	dir, bin string
	err      error
}

// Kubeplan builds cmd/kubeplan once per test binary, for the tests that
// run it as a process, and returns its path. StopShared (and so Main)
// removes it.
func Kubeplan(t testing.TB) string {
	t.Helper()
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "kubeplan-bin-"); built.err != nil {
			return
		}
		built.bin = filepath.Join(built.dir, "kubeplan")
		out, err := exec.Command("go", "build", "-o", built.bin, "github.com/kubeplan/kubeplan/cmd/kubeplan").CombinedOutput()
		if err != nil {
			built.err = fmt.Errorf("%w\n%s", err, out)
		}
	})
	if built.err != nil {
		t.Fatalf("testkube: building kubeplan: %v", built.err)
	}
	return built.bin
}
