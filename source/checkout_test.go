package source

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Read of local paths reads them as they are, with the HEAD of the
// repository holding the first, +dirty once the tree changed; stdin has
// no revision.
func TestReadLocal(t *testing.T) {
	f := newGitFixture(t, "main")
	sha := runGit(t, f.work, "rev-parse", "HEAD")
	dir := filepath.Join(f.work, "manifests")
	co, err := Read(context.Background(), Git{}, []string{dir})
	if err != nil {
		t.Fatal(err)
	}
	if co.Root != "" || len(co.Paths) != 1 || co.Paths[0] != dir || co.Top() != dir {
		t.Fatalf("local checkout = %+v, want the path as given and no root", co)
	}
	if co.Rev == nil || co.Revision() != sha {
		t.Fatalf("revision = %q, want HEAD %s", co.Revision(), sha)
	}
	f.write("manifests/service.yaml", "apiVersion: v1\nkind: Service\nmetadata:\n  name: api\n")
	co, err = Read(context.Background(), Git{}, []string{dir})
	if err != nil || co.Revision() != sha+"+dirty" {
		t.Fatalf("revision of a changed tree = %q, %v; want %s+dirty", co.Revision(), err, sha)
	}
	co, err = Read(context.Background(), Git{}, []string{"-"})
	if err != nil || co.Rev != nil || co.Revision() != "" || co.Top() != "-" {
		t.Fatalf("stdin = %+v, %v; want no revision", co, err)
	}
	if (Checkout{}).Top() != "." {
		t.Fatal("no path: the top is not the working directory")
	}
}

// Read of a git source syncs the clone and reads its --path there, files
// named relative to the clone; the revision is the commit synced.
func TestReadGit(t *testing.T) {
	f := newGitFixture(t, "main")
	f.write("manifests/extra.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: extra\n")
	sha := f.commit("Nothing new")
	f.push()
	co, err := Read(context.Background(), f.source("manifests"), []string{"ignored"})
	if err != nil {
		t.Fatal(err)
	}
	if co.Rev == nil || co.Revision() != sha || co.Rev.Subject != "Nothing new" {
		t.Fatalf("revision = %+v, want %s", co.Rev, sha)
	}
	if len(co.Paths) != 1 || !strings.HasPrefix(co.Paths[0], co.Root) || filepath.Base(co.Paths[0]) != "manifests" {
		t.Fatalf("paths %v, root %q: want the clone's manifests directory", co.Paths, co.Root)
	}
	if _, err := os.Stat(filepath.Join(co.Paths[0], "deployment.yaml")); err != nil {
		t.Fatal("the clone does not hold the manifests:", err)
	}
	if _, err := Read(context.Background(), Git{URL: filepath.Join(t.TempDir(), "missing.git"), CacheDir: t.TempDir()}, nil); err == nil {
		t.Fatal("a missing repository was read")
	}
}
