package source

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/go-git/go-git/v5/plumbing"
)

// TestChangedPaths: commits since the ref, staged, unstaged and untracked
// changes count; unchanged files and the ref's own commit do not.
func TestChangedPaths(t *testing.T) {
	f := newGitFixture(t, "main")
	runGit(t, f.work, "tag", "base")
	f.write("manifests/service.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n  name: api\n")
	f.commit("rename the service")
	runGit(t, f.work, "rm", "-q", "manifests/configmap.yaml")
	f.commit("drop the configmap")
	f.write("staged.yaml", "a: 1\n")
	runGit(t, f.work, "add", "staged.yaml")
	f.write("untracked/new.yaml", "b: 2\n")
	f.write("manifests/deployment.yaml", "kind: Deployment\n") // unstaged

	changed, root, err := ChangedPaths(filepath.Join(f.work, "manifests"), "base")
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for p := range changed {
		got = append(got, p)
	}
	slices.Sort(got)
	want := "manifests/configmap.yaml manifests/deployment.yaml manifests/service.yaml staged.yaml untracked/new.yaml"
	if strings.Join(got, " ") != want {
		t.Errorf("changed = %v, want %s", got, want)
	}
	work, _ := filepath.EvalSymlinks(f.work)
	if root != work {
		t.Errorf("root = %s, want %s", root, work)
	}
}

// TestChangedPathsErrors: a ref that does not exist is named with the
// cause; a directory outside any repository says a repository is needed.
func TestChangedPathsErrors(t *testing.T) {
	f := newGitFixture(t, "main")
	_, _, err := ChangedPaths(f.work, "no-such-branch")
	if err == nil || err.Error() != "no-such-branch: reference not found" || !errors.Is(err, plumbing.ErrReferenceNotFound) {
		t.Errorf("err = %v", err)
	}
	outside := t.TempDir()
	if err := os.WriteFile(filepath.Join(outside, "a.yaml"), []byte("a: 1\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = ChangedPaths(outside, "main")
	if err == nil || !strings.HasPrefix(err.Error(), "needs a git repository: ") {
		t.Errorf("err = %v", err)
	}
}
