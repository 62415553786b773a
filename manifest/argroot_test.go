package manifest_test

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/manifest/loader"
)

// TestArgumentLinkedOutOfCheckout: a PATH inside the checkout (the git
// work tree holding the working directory) that the repository made a
// link out of it is refused, with or without a trailing slash, and so is a
// file under it; a link to elsewhere inside the checkout is read.
func TestArgumentLinkedOutOfCheckout(t *testing.T) {
	top, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	repo, outside := filepath.Join(top, "repo"), filepath.Join(top, "outside")
	write(t, filepath.Join(outside, "cm.yaml"), cmYAML("canary-outside"))
	write(t, filepath.Join(repo, "real", "cm.yaml"), cmYAML("inside"))
	if out, err := exec.Command("git", "init", "-q", repo).CombinedOutput(); err != nil {
		t.Fatalf("git init: %v\n%s", err, out)
	}
	symlink(t, outside, filepath.Join(repo, "manifests"))
	symlink(t, "real", filepath.Join(repo, "alias"))
	t.Chdir(repo)
	for _, p := range []string{"manifests/", "manifests", "manifests/cm.yaml", "./manifests/"} {
		t.Run(p, func(t *testing.T) {
			le, se := loadBoth(t, []string{p}, loader.Options{})
			wantRefused(t, le, se, p, "resolves to "+outside, "outside "+repo)
			for _, err := range []error{le, se} {
				if strings.Contains(err.Error(), "canary-outside") {
					t.Fatalf("the outside file was read: %v", err)
				}
			}
		})
	}
	for _, p := range []string{"alias/", "alias/cm.yaml"} {
		res, err := loader.Load([]string{p}, loader.Options{})
		if err != nil || len(res.Objects) != 1 || res.Objects[0].Name != "inside" {
			t.Fatalf("%s, a link inside the checkout: %v, %v", p, res, err)
		}
	}
}
