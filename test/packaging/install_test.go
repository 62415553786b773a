package packaging

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// runInstallScript runs examples/install/release.sh (README's Install
// section, byte for byte) with bash as a new user would, in an empty
// directory and HOME, with releases from rs instead of GitHub.
func runInstallScript(t *testing.T, rs *releaseServer) (home, out string, err error) {
	t.Helper()
	script := filepath.Join(repoRoot(t), "examples", "install", "release.sh")
	home = t.TempDir()
	cmd := exec.Command("bash", script)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "HOME="+home, "KUBEPLAN_RELEASE_URL="+rs.URL)
	b, err := cmd.CombinedOutput()
	return home, string(b), err
}

// The README's release install downloads this machine's archive and
// checksums.txt, checks the SHA-256 and installs a binary that runs.
func TestInstallFromRelease(t *testing.T) {
	bin, err := os.ReadFile(kubeplanBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	rs := newReleaseServer(t)
	archive := rs.publish(t, "v1.4.0", runtime.GOOS+"_"+runtime.GOARCH, bin, "")
	home, out, err := runInstallScript(t, rs)
	if err != nil {
		t.Fatalf("examples/install/release.sh: %v\n%s", err, out)
	}
	if !strings.Contains(out, archive+": OK") || !strings.Contains(out, "kubeplan ") {
		t.Errorf("the script did not check the archive and run kubeplan version:\n%s", out)
	}
	if got := strings.Join(rs.downloads(), " "); got != "v1.4.0/"+archive+" v1.4.0/checksums.txt" {
		t.Errorf("downloads %s", got)
	}
	if _, err := os.Stat(filepath.Join(home, ".local", "bin", "kubeplan")); err != nil {
		t.Errorf("not installed: %v", err)
	}
}

// A wrong checksum stops the script before the archive is unpacked: nothing
// is installed and the binary is never run.
func TestInstallFromReleaseRefusesBadChecksum(t *testing.T) {
	bin, err := os.ReadFile(kubeplanBinary(t))
	if err != nil {
		t.Fatal(err)
	}
	rs := newReleaseServer(t)
	archive := rs.publish(t, "v1.4.0", runtime.GOOS+"_"+runtime.GOARCH, bin, strings.Repeat("0", 64))
	home, out, err := runInstallScript(t, rs)
	if err == nil {
		t.Fatalf("the script succeeded with a wrong checksum:\n%s", out)
	}
	if !strings.Contains(out, archive+": FAILED") {
		t.Errorf("the checksum check did not report the mismatch:\n%s", out)
	}
	if _, err := os.Stat(filepath.Join(home, ".local", "bin", "kubeplan")); !os.IsNotExist(err) {
		t.Errorf("installed despite the wrong checksum (stat: %v)", err)
	}
	if strings.Contains(out, "Kubernetes schemas") {
		t.Errorf("kubeplan ran despite the wrong checksum:\n%s", out)
	}
}

// TestInstallScriptShellcheck holds the README's install script to
// shellcheck's rules for bash.
func TestInstallScriptShellcheck(t *testing.T) {
	sc := lookPath(t, "shellcheck", "shellcheck")
	out, err := exec.Command(sc, "--shell=bash", filepath.Join(repoRoot(t), "examples", "install", "release.sh")).CombinedOutput()
	if err != nil {
		t.Errorf("shellcheck examples/install/release.sh: %v\n%s", err, out)
	}
}
