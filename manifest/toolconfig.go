package manifest

import (
	"regexp"
	"strings"
)

// toolGroups are API groups of configuration files that look like
// Kubernetes objects (apiVersion and kind) but are read by a tool, never
// sent to a cluster: kustomize's own files, skaffold.yaml, kind and k3d
// cluster configs, ctlptl, kubeadm and kpt configs. Public repositories
// keep them beside their manifests; they are not linted as objects.
var toolGroups = []string{
	"kustomize.config.k8s.io", "skaffold", "kind.x-k8s.io", "k3d.io", "ctlptl.dev",
	"kubeadm.k8s.io", "kpt.dev", "fn.kpt.dev", "kubelet.config.k8s.io", "kubeproxy.config.k8s.io",
	"apiserver.config.k8s.io", "audit.k8s.io",
}

// toolConfig reports whether apiVersion is a tool's configuration rather
// than a Kubernetes API object.
func toolConfig(apiVersion string) bool {
	group, _, ok := strings.Cut(apiVersion, "/")
	if !ok {
		return false // "v1": the core group
	}
	for _, g := range toolGroups {
		if group == g || strings.HasSuffix(group, "."+g) {
			return true
		}
	}
	return false
}

var apiVersionLine = regexp.MustCompile(`(?m)^\s*"?apiVersion"?\s*:\s*"?([^"\s,#]+)`)

// MayHoldObject reports, cheaply and without parsing, whether data may
// hold a Kubernetes object: it names an apiVersion and a kind, and not
// only tools' configuration apiVersions (see toolConfig).
func MayHoldObject(data []byte) bool {
	s := string(data)
	if !strings.Contains(s, "kind") {
		return false
	}
	ms := apiVersionLine.FindAllStringSubmatch(s, -1)
	if len(ms) == 0 {
		return strings.Contains(s, "apiVersion") // a form the line scan misses: let the parser decide
	}
	for _, m := range ms {
		if !toolConfig(m[1]) {
			return true
		}
	}
	return false
}
