package kubeapi

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestDirExtractsOnce(t *testing.T) {
	start := time.Now()
	d1, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("Dir() first call: %v", time.Since(start))
	if !filepath.IsAbs(d1) || !strings.HasPrefix(d1, os.Getenv("KUBEPLAN_CACHE_DIR")) {
		t.Errorf("Dir() = %s, want an absolute path under KUBEPLAN_CACHE_DIR", d1)
	}
	for _, f := range []string{
		"deployment-apps-v1.json", "service-v1.json", "configmap-v1.json",
		"customresourcedefinition-apiextensions-v1.json", "ingress-networking-v1.json",
		"clusterrole-rbac-v1.json", completeMarker,
	} {
		if _, err := os.Stat(filepath.Join(d1, f)); err != nil {
			t.Error(err)
		}
	}
	d2, err := Dir()
	if err != nil || d2 != d1 {
		t.Fatalf("second Dir() = %q, %v; want %q", d2, err, d1)
	}

	// Another process (install with the same base) reuses the directory.
	archive, err := artifacts.ReadFile(schemaArchive)
	if err != nil {
		t.Fatal(err)
	}
	d3, extracted, err := install(os.Getenv("KUBEPLAN_CACHE_DIR"), archive)
	if err != nil || d3 != d1 || extracted {
		t.Fatalf("install again = %q, extracted=%v, %v; want %q, false", d3, extracted, err, d1)
	}
}

func TestInstallRace(t *testing.T) {
	archive, err := artifacts.ReadFile(schemaArchive)
	if err != nil {
		t.Fatal(err)
	}
	base := t.TempDir()
	const n = 4
	dirs := make([]string, n)
	extracted := make([]bool, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { dirs[i], extracted[i], errs[i] = install(base, archive) })
	}
	wg.Wait()
	for i := range n {
		if errs[i] != nil || dirs[i] != dirs[0] {
			t.Fatalf("install %d = %q, %v; want %q", i, dirs[i], errs[i], dirs[0])
		}
	}
	if !extracted[0] && !extracted[1] && !extracted[2] && !extracted[3] {
		t.Error("no install reported extracting")
	}
	entries, _ := os.ReadDir(filepath.Dir(dirs[0]))
	if len(entries) != 1 {
		t.Errorf("cache holds %d entries, want only the schema dir (temporaries removed)", len(entries))
	}

	// A directory without the completion marker is replaced.
	if err := os.Remove(filepath.Join(dirs[0], completeMarker)); err != nil {
		t.Fatal(err)
	}
	d, again, err := install(base, archive)
	if err != nil || d != dirs[0] || !again {
		t.Fatalf("install over incomplete dir = %q, %v, %v", d, again, err)
	}
}

func TestExtractRefusesUnsafeEntries(t *testing.T) {
	for _, hdr := range []*tar.Header{
		{Name: "../evil.json", Typeflag: tar.TypeReg, Mode: 0o644},
		{Name: "/abs.json", Typeflag: tar.TypeReg, Mode: 0o644},
		{Name: "a/../../evil.json", Typeflag: tar.TypeReg, Mode: 0o644},
		{Name: "link.json", Typeflag: tar.TypeSymlink, Linkname: "/etc/passwd"},
	} {
		var buf bytes.Buffer
		zw := gzip.NewWriter(&buf)
		tw := tar.NewWriter(zw)
		if err := tw.WriteHeader(hdr); err != nil {
			t.Fatal(err)
		}
		tw.Close()
		zw.Close()
		parent := t.TempDir()
		dst := filepath.Join(parent, "dst")
		os.Mkdir(dst, 0o755)
		if err := extract(buf.Bytes(), dst); !errors.Is(err, errUnsafeEntry) {
			t.Errorf("%s: extract error = %v, want errUnsafeEntry", hdr.Name, err)
		}
		if _, err := os.Stat(filepath.Join(parent, "evil.json")); err == nil {
			t.Errorf("%s: wrote outside the destination", hdr.Name)
		}
	}
}

func TestCacheBase(t *testing.T) {
	t.Setenv("KUBEPLAN_CACHE_DIR", "rel/cache")
	if b, err := cacheBase(); err != nil || !filepath.IsAbs(b) || !strings.HasSuffix(b, "rel/cache") {
		t.Errorf("relative KUBEPLAN_CACHE_DIR: %q, %v", b, err)
	}
	t.Setenv("KUBEPLAN_CACHE_DIR", "")
	t.Setenv("XDG_CACHE_HOME", "")
	t.Setenv("HOME", "")
	tmp := t.TempDir()
	t.Setenv("TMPDIR", tmp)
	b, err := cacheBase()
	if err != nil {
		t.Fatal(err)
	}
	if filepath.Dir(b) != tmp || !strings.HasPrefix(filepath.Base(b), "kubeplan-cache-") {
		t.Errorf("no HOME: cache base %q, want %s/kubeplan-cache-<uid>", b, tmp)
	}
	if fi, err := os.Stat(b); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("fallback base not private: %v %v", fi.Mode(), err)
	}
}

// BenchmarkInstall measures a first-use extraction into an empty cache.
func BenchmarkInstall(b *testing.B) {
	archive, err := artifacts.ReadFile(schemaArchive)
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, _, err := install(b.TempDir(), archive); err != nil {
			b.Fatal(err)
		}
	}
}
