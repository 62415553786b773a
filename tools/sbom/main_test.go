package main

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// The SBOM of kubeplan, built here, lists its main module, Go and every
// module linked in, with purls, each a dependency of the main module,
// under a namespace unique to the binary's content.
func TestDocument(t *testing.T) {
	exe := filepath.Join(t.TempDir(), "kubeplan")
	cmd := exec.Command("go", "build", "-o", exe, "./cmd/kubeplan")
	cmd.Dir = "../.."
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	doc, err := Document(exe, time.Unix(0, 0))
	if err != nil {
		t.Fatal(err)
	}
	if doc.SPDXVersion != "SPDX-2.3" || doc.CreationInfo.Created != "1970-01-01T00:00:00Z" || !strings.HasPrefix(doc.DocumentNamespace, "https://github.com/kubeplan/kubeplan/sbom/") {
		t.Errorf("document %+v", doc)
	}
	names := map[string]Package{}
	for _, p := range doc.Packages {
		names[p.Name] = p
	}
	if names["github.com/kubeplan/kubeplan"].Checksums == nil || names["go"].VersionInfo == "" {
		t.Errorf("main module or go missing: %+v", names)
	}
	dep, ok := names["k8s.io/apimachinery"]
	if !ok {
		t.Fatalf("k8s.io/apimachinery not listed")
	}
	if dep.VersionInfo != "v0.37.2" || dep.ExternalRefs[0].Locator != "pkg:golang/k8s.io/apimachinery@v0.37.2" {
		t.Errorf("apimachinery %+v", dep)
	}
	if len(doc.Relationships) != len(doc.Packages) {
		t.Errorf("%d relationships for %d packages", len(doc.Relationships), len(doc.Packages))
	}
	if _, err := Document("main.go", time.Now()); err == nil {
		t.Error("a file that is not a Go binary made an SBOM")
	}
}
