package project

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/kustomize"
)

// maxKustomizationBytes bounds one kustomization file: it lists paths.
const maxKustomizationBytes = 4 << 20

// kustomizationFile returns the kustomization file of dir, or "".
func kustomizationFile(dir string) string {
	for _, n := range manifest.KustomizationNames() {
		if fi, err := os.Lstat(filepath.Join(dir, n)); err == nil && !fi.IsDir() {
			return filepath.Join(dir, n)
		}
	}
	return ""
}

// kustomization is what Discover reads of a kustomization file: the
// local paths it names, whether it is a Component and its namespace:.
type kustomization struct {
	component bool
	paths     []string
	namespace string
	// charts and helmFiles are what its helmCharts: read (see helmRefs).
	charts, helmFiles []string
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

// readKustomization reads the kustomization file at path, as far as it
// can: only regular files are read (a link or a FIFO is left to the
// loader, which refuses it with a clear error) and a file that is not
// valid YAML names nothing (kustomize reports it when the project is
// built). Its entries are parsed as the loader parses them
// (manifest.ReadKustomizationInfo); remote and inline ones are dropped.
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
	info := kustomize.ReadInfo(data)
	k.component, k.namespace = info.Component, info.Namespace
	k.charts, k.helmFiles = helmRefs(data)
	for _, r := range info.Refs {
		if isLocalPath(r) {
			k.paths = append(k.paths, r)
		}
	}
	return k
}
