package packaging

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// The release build makes what the Action downloads: archives named
// kubeplan_VERSION_OS_ARCH (.zip on Windows), a SHA-256 checksums.txt, for
// linux, darwin and windows on amd64 and arm64, with the version, commit
// and date stamped into the binary; and goreleaser stays out of go.mod.
func TestReleaseConfigMatchesTheAction(t *testing.T) {
	root := repoRoot(t)
	b, err := os.ReadFile(filepath.Join(root, ".goreleaser.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	var cfg struct {
		Builds []struct {
			Main    string   `yaml:"main"`
			Env     []string `yaml:"env"`
			Ldflags []string `yaml:"ldflags"`
			Goos    []string `yaml:"goos"`
			Goarch  []string `yaml:"goarch"`
		} `yaml:"builds"`
		Archives []struct {
			NameTemplate    string   `yaml:"name_template"`
			Formats         []string `yaml:"formats"`
			FormatOverrides []struct {
				Goos    string   `yaml:"goos"`
				Formats []string `yaml:"formats"`
			} `yaml:"format_overrides"`
		} `yaml:"archives"`
		SBOMs []struct {
			Artifacts string   `yaml:"artifacts"`
			Cmd       string   `yaml:"cmd"`
			Documents []string `yaml:"documents"`
		} `yaml:"sboms"`
		Before struct {
			Hooks []string `yaml:"hooks"`
		} `yaml:"before"`
		Checksum struct {
			NameTemplate string `yaml:"name_template"`
			Algorithm    string `yaml:"algorithm"`
		} `yaml:"checksum"`
	}
	if err := yaml.Unmarshal(b, &cfg); err != nil {
		t.Fatal(err)
	}
	if len(cfg.Builds) != 1 || len(cfg.Archives) != 1 {
		t.Fatalf("builds %d, archives %d: want one of each", len(cfg.Builds), len(cfg.Archives))
	}
	bd, ar := cfg.Builds[0], cfg.Archives[0]
	if bd.Main != "./cmd/kubeplan" || strings.Join(bd.Goos, ",") != "linux,darwin,windows" || strings.Join(bd.Goarch, ",") != "amd64,arm64" ||
		!slices.Contains(bd.Env, "CGO_ENABLED=0") {
		t.Errorf("build %+v", bd)
	}
	ld := strings.Join(bd.Ldflags, " ")
	for _, v := range []string{"github.com/kubeplan/kubeplan/internal/buildinfo.version=v{{ .Version }}", "github.com/kubeplan/kubeplan/internal/buildinfo.commit=", "github.com/kubeplan/kubeplan/internal/buildinfo.date="} {
		if !strings.Contains(ld, v) {
			t.Errorf("ldflags %q lack %s", ld, v)
		}
	}
	if ar.NameTemplate != "{{ .ProjectName }}_{{ .Version }}_{{ .Os }}_{{ .Arch }}" || strings.Join(ar.Formats, ",") != "tar.gz" ||
		len(ar.FormatOverrides) != 1 || ar.FormatOverrides[0].Goos != "windows" || strings.Join(ar.FormatOverrides[0].Formats, ",") != "zip" {
		t.Errorf("archives %+v: the Action downloads kubeplan_VERSION_OS_ARCH.tar.gz (.zip on windows)", ar)
	}
	// An SPDX SBOM per binary, made offline by tools/sbom (no syft).
	if len(cfg.SBOMs) != 1 || cfg.SBOMs[0].Artifacts != "binary" || cfg.SBOMs[0].Cmd != "../.bin/kubeplan-sbom" ||
		!slices.Contains(cfg.Before.Hooks, "go build -o .bin/kubeplan-sbom ./tools/sbom") {
		t.Errorf("sboms %+v, before %+v: want tools/sbom built before and run on every binary", cfg.SBOMs, cfg.Before)
	}
	if cfg.Checksum.NameTemplate != "checksums.txt" || cfg.Checksum.Algorithm != "sha256" {
		t.Errorf("checksum %+v", cfg.Checksum)
	}
	action, err := os.ReadFile(filepath.Join(root, "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(action), `archive="kubeplan_${version#v}_${os}_${arch}.$ext"`) {
		t.Error("action.yml no longer downloads kubeplan_VERSION_OS_ARCH.EXT")
	}
	gomod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []string{"goreleaser", "google/ko", "go-containerregistry"} {
		if strings.Contains(string(gomod), m) {
			t.Errorf("go.mod names %s: release and image tooling stay in tools.mod and tools/image", m)
		}
	}
	if strings.Contains(string(gomod), "\nreplace") || strings.HasPrefix(string(gomod), "replace") {
		t.Error("go.mod has a replace directive: go install github.com/kubeplan/kubeplan/cmd/kubeplan@VERSION would refuse it")
	}
	tools, err := os.ReadFile(filepath.Join(root, "tools.mod"))
	if err != nil || !strings.Contains(string(tools), "tool github.com/goreleaser/goreleaser/v2") || !strings.Contains(string(tools), "github.com/goreleaser/goreleaser/v2 v2.15.1") {
		t.Errorf("tools.mod does not pin goreleaser v2.15.1 as a tool (%v)", err)
	}
}
