package workspace

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/kubeapi"
)

func ptr(s string) *string { return &s }

// write writes files under a new directory and returns it.
func write(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// A flag wins over kubeplan.yaml, which wins over the default.
func TestKubeVersionPrecedence(t *testing.T) {
	cfg := &config.Config{KubeVersion: "1.34"}
	for _, tc := range []struct {
		name string
		cfg  *config.Config
		flag *string
		want string
	}{
		{"default", nil, nil, kubeapi.KubeVersion},
		{"kubeplan.yaml", cfg, nil, "1.34"},
		{"flag over kubeplan.yaml", cfg, ptr("1.35"), "1.35"},
		{"flag over default", nil, ptr("1.33"), "1.33"},
		// --kube-version "" given: the default, not kubeplan.yaml's
		{"empty flag", cfg, ptr(""), kubeapi.KubeVersion},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, lo, err := New(tc.cfg, Options{Overrides: Overrides{KubeVersion: tc.flag}}).Lint(Set{})
			if err != nil {
				t.Fatal(err)
			}
			if lo.KubeVersion != tc.want {
				t.Errorf("KubeVersion = %q, want %q", lo.KubeVersion, tc.want)
			}
		})
	}
	if _, _, err := New(nil, Options{Overrides: Overrides{KubeVersion: ptr("1.2")}}).Lint(Set{}); err == nil {
		t.Error("an unsupported --kube-version is no error")
	}
}

// Lists add the flags' entries to kubeplan.yaml's; a switch is on when
// either sets it.
func TestListsAndSwitches(t *testing.T) {
	dir := write(t, map[string]string{"kubeplan.yaml": "exclude: [old/**]\ncrds: [crds]\nignoreMissingSchemas: false\n"})
	ws, err := Open(Options{From: dir, Overrides: Overrides{Exclude: []string{"tmp/**"}, CRDs: []string{"extra.yaml"}, IgnoreMissingSchemas: true}})
	if err != nil {
		t.Fatal(err)
	}
	in, lo, err := ws.Lint(Set{Paths: []string{"a.yaml"}, Namespace: "shop"})
	if err != nil {
		t.Fatal(err)
	}
	if len(in.CRDPaths) != 2 || abs(t, in.CRDPaths[0]) != filepath.Join(dir, "crds") || in.CRDPaths[1] != "extra.yaml" {
		t.Errorf("CRDPaths = %q, want kubeplan.yaml's crds then the flag's", in.CRDPaths)
	}
	if len(in.Load.Exclude) != 2 || in.Load.Exclude[1] != "tmp/**" {
		t.Errorf("Exclude = %q, want kubeplan.yaml's then the flag's", in.Load.Exclude)
	}
	if !lo.IgnoreMissingSchemas || lo.Namespace != "shop" || in.Load.Helm.Namespace != "shop" {
		t.Errorf("options: %+v", lo)
	}
	ws, err = Open(Options{From: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, lo, _ := ws.Lint(Set{}); lo.IgnoreMissingSchemas {
		t.Error("ignoreMissingSchemas: false and no flag is on")
	}
}

// --config is read instead of the kubeplan.yaml found walking up; an
// unknown rule in it names the file and the line.
func TestConfigFile(t *testing.T) {
	dir := write(t, map[string]string{
		"kubeplan.yaml":     "kubeVersion: \"1.34\"\n",
		"other.yaml":        "kubeVersion: \"1.35\"\n",
		"bad/kubeplan.yaml": "rules:\n  no-such-rule: error\n",
	})
	ws, err := Open(Options{From: dir, Overrides: Overrides{ConfigFile: filepath.Join(dir, "other.yaml")}})
	if err != nil {
		t.Fatal(err)
	}
	if _, lo, _ := ws.Lint(Set{}); lo.KubeVersion != "1.35" {
		t.Errorf("--config not read: %q", lo.KubeVersion)
	}
	ws, err = Open(Options{From: filepath.Join(dir, "bad")})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := ws.Lint(Set{}); err == nil || !strings.Contains(err.Error(), "kubeplan.yaml:2:3") || !strings.Contains(err.Error(), "no-such-rule") {
		t.Errorf("unknown rule: %v", err)
	}
}

// A legacy .kubeplan.yaml is read and noticed.
func TestLegacyNoticed(t *testing.T) {
	dir := write(t, map[string]string{".kubeplan.yaml": "kubeVersion: \"1.34\"\n"})
	noticed := 0
	ws, err := Open(Options{From: dir, Legacy: func() { noticed++ }})
	if err != nil {
		t.Fatal(err)
	}
	if _, lo, _ := ws.Lint(Set{}); lo.KubeVersion != "1.34" || noticed != 1 {
		t.Errorf("legacy config: version %q, noticed %d times", lo.KubeVersion, noticed)
	}
}

func abs(t *testing.T, p string) string {
	t.Helper()
	a, err := filepath.Abs(p)
	if err != nil {
		t.Fatal(err)
	}
	return a
}
