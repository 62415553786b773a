package project

import (
	"os"
	"path/filepath"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// kustomizationNames are the file names kustomize reads, in its order.
var kustomizationNames = []string{"kustomization.yaml", "kustomization.yml", "Kustomization"}

// maxKustomizationBytes bounds one kustomization file: it lists paths.
const maxKustomizationBytes = 4 << 20

// kustomizationFile returns the kustomization file of dir, or "".
func kustomizationFile(dir string) string {
	for _, n := range kustomizationNames {
		if fi, err := os.Lstat(filepath.Join(dir, n)); err == nil && !fi.IsDir() {
			return filepath.Join(dir, n)
		}
	}
	return ""
}

// kustomization is what Discover reads of a kustomization file.
type kustomization struct {
	APIVersion            string     `yaml:"apiVersion"`
	Kind                  string     `yaml:"kind"`
	Resources             []string   `yaml:"resources"`
	Bases                 []string   `yaml:"bases"`
	Components            []string   `yaml:"components"`
	CRDs                  []string   `yaml:"crds"`
	PatchesStrategicMerge []string   `yaml:"patchesStrategicMerge"`
	Patches               []pathItem `yaml:"patches"`
	PatchesJSON6902       []pathItem `yaml:"patchesJson6902"`
	Replacements          []pathItem `yaml:"replacements"`
	ConfigMapGenerator    []genItem  `yaml:"configMapGenerator"`
	SecretGenerator       []genItem  `yaml:"secretGenerator"`
	Generators            []string   `yaml:"generators"`
	Transformers          []string   `yaml:"transformers"`
	Validators            []string   `yaml:"validators"`
}

type pathItem struct {
	Path string `yaml:"path"`
}

type genItem struct {
	Files []string `yaml:"files"`
	Envs  []string `yaml:"envs"`
	Env   string   `yaml:"env"`
}

// isComponent reports a kind: Component of kustomize's v1alpha1 API.
func (k *kustomization) isComponent() bool {
	return k.Kind == "Component" && strings.HasPrefix(k.APIVersion, "kustomize.config.k8s.io/")
}

// refs are the local paths k names, as written, without inline patches,
// inline generator and transformer configs and remote URLs.
func (k *kustomization) refs() []string {
	var out []string
	add := func(ps ...string) {
		for _, p := range ps {
			if isLocalPath(p) {
				out = append(out, p)
			}
		}
	}
	add(k.Resources...)
	add(k.Bases...)
	add(k.Components...)
	add(k.CRDs...)
	add(k.PatchesStrategicMerge...)
	add(k.Generators...)
	add(k.Transformers...)
	add(k.Validators...)
	for _, items := range [][]pathItem{k.Patches, k.PatchesJSON6902, k.Replacements} {
		for _, it := range items {
			add(it.Path)
		}
	}
	for _, gs := range [][]genItem{k.ConfigMapGenerator, k.SecretGenerator} {
		for _, g := range gs {
			for _, f := range g.Files {
				if _, after, ok := strings.Cut(f, "="); ok {
					f = after // key=path
				}
				add(f)
			}
			add(g.Envs...)
			add(g.Env)
		}
	}
	return out
}

// isLocalPath is false for "", inline YAML (a patch or a config written in
// the kustomization) and remote resources.
func isLocalPath(p string) bool {
	p = strings.TrimSpace(p)
	if p == "" || strings.ContainsAny(p, "\n:{") {
		return false // inline, or a URL (https://, git@host:, ...)
	}
	for _, pre := range []string{"github.com/", "gitlab.com/", "bitbucket.org/"} {
		if strings.HasPrefix(p, pre) {
			return false
		}
	}
	return true
}

// readKustomization parses the kustomization file at path, as far as it
// can: only regular files are read (a link or a FIFO is left to the
// loader, which refuses it with a clear error) and a file that is not
// valid YAML names nothing (kustomize reports it when the project is
// built); fields of the wrong type are skipped.
func readKustomization(path string) *kustomization {
	k := &kustomization{}
	fi, err := os.Lstat(path)
	if err != nil || !fi.Mode().IsRegular() || fi.Size() > maxKustomizationBytes {
		return k
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return k
	}
	_ = yaml.Unmarshal(data, k) // a *yaml.TypeError keeps the other fields
	return k
}
