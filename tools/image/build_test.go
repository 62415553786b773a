package main

import (
	"archive/tar"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-containerregistry/pkg/v1/layout"
	"github.com/google/go-containerregistry/pkg/v1/mutate"
	"github.com/google/go-containerregistry/pkg/v1/tarball"
	"github.com/google/go-containerregistry/pkg/v1/validate"
)

// staticBinary builds a small static linux program standing in for
// kubeplan (make image puts the real one in).
func staticBinary(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module hello\n\ngo 1.26\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "main.go"), []byte("package main\n\nfunc main() { println(\"kubeplan stand-in\") }\n"), 0o644)
	bin := filepath.Join(dir, "kubeplan")
	cmd := exec.Command("go", "build", "-o", bin, ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOFLAGS=")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	return bin
}

// The image, written as an OCI layout and a tarball, passes
// go-containerregistry's validation, runs as 65532 with the entrypoint
// kubeplan on its PATH, and holds the binary (executable), the CA
// certificates and the nonroot user.
func TestImage(t *testing.T) {
	bin := staticBinary(t)
	certs := filepath.Join(t.TempDir(), "ca.crt")
	os.WriteFile(certs, []byte("-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n"), 0o644)
	out := t.TempDir()
	if err := run(bin, certs, out, "v1.4.0", runtime.GOARCH); err != nil {
		t.Fatal(err)
	}
	idx, err := layout.ImageIndexFromPath(filepath.Join(out, "oci"))
	if err != nil {
		t.Fatal(err)
	}
	if err := validate.Index(idx); err != nil {
		t.Fatalf("OCI layout: %v", err)
	}
	im, err := idx.IndexManifest()
	if err != nil || len(im.Manifests) != 1 || im.Manifests[0].Annotations["org.opencontainers.image.ref.name"] != "v1.4.0" {
		t.Fatalf("index %+v, %v", im, err)
	}
	img, err := idx.Image(im.Manifests[0].Digest)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate.Image(img); err != nil {
		t.Fatalf("image: %v", err)
	}
	fromTar, err := tarball.ImageFromPath(filepath.Join(out, "kubeplan.tar"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := validate.Image(fromTar); err != nil {
		t.Fatalf("tarball: %v", err)
	}
	if a, _ := img.Digest(); true {
		if b, _ := fromTar.ConfigName(); b.String() == "" || a.String() == "" {
			t.Error("no digests")
		}
	}

	cf, err := img.ConfigFile()
	if err != nil {
		t.Fatal(err)
	}
	c := cf.Config
	if c.User != "65532:65532" || strings.Join(c.Entrypoint, " ") != "kubeplan" || cf.OS != "linux" || cf.Architecture != runtime.GOARCH ||
		!contains(c.Env, "PATH=/usr/local/bin:/usr/bin:/bin") || c.Labels["org.opencontainers.image.version"] != "v1.4.0" {
		t.Errorf("config %+v (os %s arch %s)", c, cf.OS, cf.Architecture)
	}

	files := map[string]*tar.Header{}
	rc := mutate.Extract(img)
	defer rc.Close()
	tr := tar.NewReader(rc)
	for {
		h, err := tr.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		files[strings.TrimSuffix(h.Name, "/")] = h
		if h.Name == "etc/passwd" {
			b, _ := io.ReadAll(tr)
			if !strings.Contains(string(b), "nonroot:x:65532:65532:") {
				t.Errorf("passwd %q", b)
			}
		}
	}
	if h := files["usr/local/bin/kubeplan"]; h == nil || h.Mode&0o111 == 0 || h.Size == 0 {
		t.Errorf("kubeplan binary %+v", h)
	}
	if h := files["etc/ssl/certs/ca-certificates.crt"]; h == nil || h.Size == 0 {
		t.Errorf("CA certificates %+v", h)
	}
	if h := files["home/nonroot"]; h == nil || h.Uid != Nonroot {
		t.Errorf("home %+v", h)
	}
	if _, ok := files["usr/bin/git"]; ok {
		t.Error("a git binary in the image")
	}
	layers, _ := img.Layers()
	if len(layers) != 2 {
		t.Errorf("%d layers, want the base and the binary", len(layers))
	}

	// The same inputs give the same image.
	out2 := t.TempDir()
	if err := run(bin, certs, out2, "v1.4.0", runtime.GOARCH); err != nil {
		t.Fatal(err)
	}
	idx2, _ := layout.ImageIndexFromPath(filepath.Join(out2, "oci"))
	im2, _ := idx2.IndexManifest()
	if im2.Manifests[0].Digest != im.Manifests[0].Digest {
		t.Errorf("two builds of the same inputs differ: %s, %s", im.Manifests[0].Digest, im2.Manifests[0].Digest)
	}
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
