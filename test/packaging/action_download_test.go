package packaging

import (
	"archive/tar"
	"bytes"
	"compress/gzip"
	"crypto/sha256"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// releaseServer serves release assets the way GitHub does: GET
// /TAG/NAME answers with a redirect to the asset's storage URL, which
// serves the bytes. It counts the asset downloads.
type releaseServer struct {
	*httptest.Server
	mu     sync.Mutex
	assets map[string][]byte // "v1.4.0/checksums.txt" -> content
	gets   []string
}

func newReleaseServer(t *testing.T) *releaseServer {
	rs := &releaseServer{assets: map[string][]byte{}}
	mux := http.NewServeMux()
	mux.HandleFunc("/storage/", func(w http.ResponseWriter, r *http.Request) {
		name := strings.TrimPrefix(r.URL.Path, "/storage/")
		rs.mu.Lock()
		data, ok := rs.assets[name]
		rs.gets = append(rs.gets, name)
		rs.mu.Unlock()
		if !ok {
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/octet-stream")
		w.Write(data)
	})
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		http.Redirect(w, r, "/storage"+r.URL.Path, http.StatusFound)
	})
	rs.Server = httptest.NewServer(mux)
	t.Cleanup(rs.Close)
	return rs
}

func (rs *releaseServer) downloads() []string {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return append([]string(nil), rs.gets...)
}

// publish adds a release: the archive holding bin as "kubeplan", and a
// checksums.txt that lists sum for it (the archive's real SHA-256 when sum
// is "").
func (rs *releaseServer) publish(t *testing.T, tag, osArch string, bin []byte, sum string) string {
	t.Helper()
	var buf bytes.Buffer
	gz := gzip.NewWriter(&buf)
	tw := tar.NewWriter(gz)
	for name, body := range map[string][]byte{"kubeplan": bin, "README.md": []byte("kubeplan\n"), "LICENSE": []byte("Apache-2.0\n")} {
		mode := int64(0o644)
		if name == "kubeplan" {
			mode = 0o755
		}
		if err := tw.WriteHeader(&tar.Header{Name: name, Mode: mode, Size: int64(len(body)), Typeflag: tar.TypeReg}); err != nil {
			t.Fatal(err)
		}
		tw.Write(body)
	}
	tw.Close()
	gz.Close()
	archive := fmt.Sprintf("kubeplan_%s_%s.tar.gz", strings.TrimPrefix(tag, "v"), osArch)
	if sum == "" {
		sum = fmt.Sprintf("%x", sha256.Sum256(buf.Bytes()))
	}
	other := fmt.Sprintf("%x  kubeplan_%s_darwin_arm64.tar.gz\n", sha256.Sum256([]byte("other")), strings.TrimPrefix(tag, "v"))
	rs.mu.Lock()
	rs.assets[tag+"/"+archive] = buf.Bytes()
	rs.assets[tag+"/checksums.txt"] = []byte(other + sum + "  " + archive + "\n")
	rs.mu.Unlock()
	return archive
}

// downloadRun is an action run at a release: no binary in $RUNNER_TEMP,
// the runner's tool cache in a temp dir, releases from rs.
func downloadRun(t *testing.T, rs *releaseServer, toolCache, arch string) *actionRun {
	t.Helper()
	r := newActionRun(t)
	os.Remove(filepath.Join(r.runnerTemp, "kubeplan"))
	r.env = append(r.env, "KUBEPLAN_RELEASE_URL="+rs.URL, "RUNNER_TOOL_CACHE="+toolCache, "RUNNER_OS=Linux", "RUNNER_ARCH="+arch)
	r.write("manifests/configmap.yaml", "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: settings\ndata:\n  currency: EUR\n")
	return r
}

// At a release, the action downloads the binary for the runner's OS and
// architecture, checks it against checksums.txt, keeps it in the tool
// cache and runs it; the next run on that runner downloads nothing.
func TestActionDownloadsRelease(t *testing.T) {
	bin, err := os.ReadFile(kubeplanBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	rs := newReleaseServer(t)
	archive := rs.publish(t, "v1.4.0", "linux_amd64", bin, "")
	toolCache := t.TempDir()
	r := downloadRun(t, rs, toolCache, "X64")
	res := r.run(map[string]string{"command": "lint", "path": "manifests", "version": "v1.4.0"})
	if res.exitCode != 0 || res.outputs["exit-code"] != "0" || !strings.Contains(res.summary+res.stdout+res.stderr, "1 file") {
		t.Fatalf("exit %d (step %q)\n%s\n%s", res.exitCode, res.failedStep, res.stdout, res.stderr)
	}
	if got := strings.Join(rs.downloads(), " "); got != "v1.4.0/checksums.txt v1.4.0/"+archive {
		t.Errorf("downloads %s", got)
	}
	cached := filepath.Join(toolCache, "kubeplan", "1.4.0", "amd64")
	if _, err := os.Stat(cached + ".complete"); err != nil {
		t.Errorf("tool cache not marked complete: %v", err)
	}
	if res.stepOutputs["install"]["bin"] != filepath.Join(cached, "kubeplan") || res.stepOutputs["install"]["mode"] != "download" {
		t.Errorf("install outputs %v", res.stepOutputs["install"])
	}
	if left := r.leftovers(); len(left) != 0 {
		t.Errorf("the download left %v in $RUNNER_TEMP", left)
	}

	// The next job on this runner: from the tool cache, nothing downloaded.
	again := downloadRun(t, rs, toolCache, "X64")
	if res := again.run(map[string]string{"command": "lint", "path": "manifests", "version": "v1.4.0"}); res.exitCode != 0 {
		t.Fatalf("cached run: exit %d\n%s", res.exitCode, res.stderr)
	}
	if n := len(rs.downloads()); n != 2 {
		t.Errorf("the cached run downloaded again: %v", rs.downloads())
	}

	// An arm64 runner gets the arm64 archive.
	rs.publish(t, "v1.4.0", "linux_arm64", bin, "")
	arm := downloadRun(t, rs, t.TempDir(), "ARM64")
	if res := arm.run(map[string]string{"command": "lint", "path": "manifests", "version": "v1.4.0"}); res.exitCode != 0 ||
		!strings.HasSuffix(res.stepOutputs["install"]["bin"], filepath.Join("1.4.0", "arm64", "kubeplan")) {
		t.Errorf("arm64: exit %d, outputs %v\n%s", res.exitCode, res.stepOutputs["install"], res.stderr)
	}
}

// A wrong checksum fails the install step: the archive is not unpacked,
// nothing lands in the tool cache, and the binary is never run.
func TestActionRefusesBadChecksum(t *testing.T) {
	marker := filepath.Join(t.TempDir(), "ran")
	bin := []byte("#!/bin/sh\ntouch " + shellQuote(marker) + "\n")
	rs := newReleaseServer(t)
	rs.publish(t, "v1.4.0", "linux_amd64", bin, strings.Repeat("0", 64))
	toolCache := t.TempDir()
	r := downloadRun(t, rs, toolCache, "X64")
	res := r.run(map[string]string{"command": "lint", "path": "manifests", "version": "v1.4.0"})
	if res.exitCode == 0 || res.failedStep != "Install kubeplan" {
		t.Fatalf("exit %d, failed step %q", res.exitCode, res.failedStep)
	}
	if !strings.Contains(res.stdout, "::error title=kubeplan action::the SHA-256 of kubeplan_1.4.0_linux_amd64.tar.gz is ") ||
		!strings.Contains(res.stdout, "checksums.txt of v1.4.0 says 0000") {
		t.Errorf("error:\n%s", res.stdout)
	}
	if _, err := os.Stat(marker); err == nil {
		t.Error("the binary of a release with a wrong checksum was run")
	}
	if ents, _ := os.ReadDir(toolCache); len(ents) != 0 {
		t.Errorf("the tool cache holds %v", ents)
	}
	if left := r.leftovers(); len(left) != 0 {
		t.Errorf("the failed download left %v in $RUNNER_TEMP", left)
	}
}

// At a ref that is not a release, the install step chooses a source
// build, with a cache key hashed from the action's own go.sum.
func TestActionSourceBuildCacheKey(t *testing.T) {
	sum, err := os.ReadFile(filepath.Join(repoRoot(t), "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	r := newActionRun(t)
	r.env = append(r.env, "RUNNER_OS=Linux", "RUNNER_ARCH=X64", "GITHUB_ACTION_REF=main")
	res := r.run(map[string]string{"command": "lint", "path": "."})
	want := fmt.Sprintf("kubeplan-go-Linux-X64-%x", sha256.Sum256(sum))
	if out := res.stepOutputs["install"]; out["mode"] != "source" || out["cache-key"] != want || out["bin"] != filepath.Join(r.runnerTemp, "kubeplan") {
		t.Errorf("install outputs %v, want a source build keyed %s", out, want)
	}
}
