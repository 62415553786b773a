package manifest

import (
	"fmt"
	"regexp"
	"strings"
	"sync"

	yaml "go.yaml.in/yaml/v3"
)

// RuleToolConfig is the rule of the info Problem a tool's configuration
// file gets: recognised, and not linted as an object.
const RuleToolConfig = "tool-config"

// toolGroups are API groups of configuration files that look like
// Kubernetes objects (apiVersion and kind) but are read by a tool, never
// sent to a cluster, whatever their kind. Public repositories keep them
// beside their manifests. Groups match exactly: a real API group that ends
// like one of these (internal.apiserver.k8s.io) is not a tool's.
var toolGroups = map[string]string{
	"kustomize.config.k8s.io":              "kustomize's own configuration", // Kustomization, Component
	"config.kubernetes.io":                 "a KRM function's configuration (kustomize, kpt)",
	"builtin":                              "a kustomize builtin plugin's configuration",
	"skaffold":                             "skaffold's configuration",
	"kind.x-k8s.io":                        "kind's cluster configuration",
	"kind.sigs.k8s.io":                     "kind's cluster configuration",
	"k3d.io":                               "k3d's cluster configuration",
	"ctlptl.dev":                           "ctlptl's configuration",
	"kubeadm.k8s.io":                       "kubeadm's configuration", // Init, Cluster, Join, Reset, UpgradeConfiguration
	"kpt.dev":                              "kpt's package file",
	"fn.kpt.dev":                           "a kpt function's configuration",
	"kubelet.config.k8s.io":                "the kubelet's configuration",
	"credentialprovider.kubelet.k8s.io":    "the kubelet credential providers' configuration",
	"kubeproxy.config.k8s.io":              "kube-proxy's configuration",
	"kubescheduler.config.k8s.io":          "kube-scheduler's configuration",
	"kubecontrollermanager.config.k8s.io":  "kube-controller-manager's configuration",
	"cloudcontrollermanager.config.k8s.io": "cloud-controller-manager's configuration",
	"apiserver.config.k8s.io":              "kube-apiserver's configuration", // EncryptionConfiguration, AdmissionConfiguration, ...
	"apiserver.k8s.io":                     "kube-apiserver's configuration",
	"audit.k8s.io":                         "kube-apiserver's audit configuration",
	"pod-security.admission.config.k8s.io": "the PodSecurity admission plugin's configuration",
	"eventratelimit.admission.k8s.io":      "the EventRateLimit admission plugin's configuration",
	"client.authentication.k8s.io":         "a client-go credential plugin's message",
	"v1alpha1":                             "a Talos machine configuration", // a machine config document: "apiVersion: v1alpha1"
	"eksctl.io":                            "eksctl's cluster configuration",
	"k0sctl.k0sproject.io":                 "k0sctl's cluster configuration",
	"kuttl.dev":                            "a KUTTL test",
	"chainsaw.kyverno.io":                  "a Chainsaw test",
	"cli.kyverno.io":                       "a Kyverno CLI test",
	"kubeplan.dev":                         "kubeplan's own configuration", // its kinds: toolKinds
}

// toolKinds are tools' configurations in a group Kubernetes serves, by
// apiVersion and kind: only that pair is a tool's.
var toolKinds = map[[2]string]string{
	{"v1", "Config"}:                        "a kubeconfig (kubectl's clusters, contexts and users)",
	{"kubeplan.dev/v1alpha1", "PolicyTest"}: "a test of ValidatingAdmissionPolicies (kubeplan policy test)",
}

// toolGroup describes the tool configuration group apiVersion is in
// (any kind), or "". A bare version is the core group, no tool's, but for
// the few bare names tools use ("builtin", Talos' "v1alpha1").
func toolGroup(apiVersion string) string {
	group, _, ok := strings.Cut(apiVersion, "/")
	if !ok {
		if apiVersion == "builtin" || apiVersion == "v1alpha1" {
			return toolGroups[apiVersion]
		}
		return ""
	}
	return toolGroups[group]
}

// functionAnnotations mark a KRM function's configuration (a kustomize
// generator or transformer, a kpt function) in any group.
var functionAnnotations = []string{"config.kubernetes.io/function", "config.k8s.io/function"}

// toolConfig says what tool's configuration a document is ("kind's cluster
// configuration"), from its apiVersion and kind, or a KRM function's
// annotation; "" for what may be a Kubernetes object.
func toolConfig(content map[string]any) string {
	av, _ := content["apiVersion"].(string)
	k, _ := content["kind"].(string)
	if t := toolKinds[[2]string{av, k}]; t != "" { // a kind says more than its group
		return t
	}
	if t := toolGroup(av); t != "" {
		return t
	}
	meta, _ := content["metadata"].(map[string]any)
	annotations, _ := meta["annotations"].(map[string]any)
	for _, a := range functionAnnotations {
		if _, ok := annotations[a]; ok {
			return "a KRM function's configuration (kustomize, kpt)"
		}
	}
	return ""
}

// toolConfigProblem is the info Problem of a tool's configuration
// document, at its kind.
func toolConfigProblem(file string, content map[string]any, root *yaml.Node, lines *lineMap, tool string) *Problem {
	o := &Object{File: file, Content: content, Root: root, Lines: lines}
	av, _ := content["apiVersion"].(string)
	kind, _ := content["kind"].(string)
	pos := o.Pos("kind")
	if _, ok := content["kind"]; !ok {
		pos = o.Pos("apiVersion")
	}
	return &Problem{File: file, Pos: pos, Rule: RuleToolConfig, Info: true,
		Message: fmt.Sprintf("%s %s is %s, not a Kubernetes object: not linted, never applied", av, kind, tool)}
}

var apiVersionLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*"?apiVersion"?\s*:\s*"?([^"\s,#]+)`) })

// MayHoldObject reports, cheaply and without parsing, whether data may
// hold a Kubernetes object: it names an apiVersion and a kind, and not
// only apiVersions of tools' configuration groups (see toolGroups).
func MayHoldObject(data []byte) bool {
	s := string(data)
	if !strings.Contains(s, "kind") {
		return false
	}
	ms := apiVersionLine().FindAllStringSubmatch(s, -1)
	if len(ms) == 0 {
		return strings.Contains(s, "apiVersion") // a form the line scan misses: let the parser decide
	}
	for _, m := range ms {
		if toolGroup(m[1]) == "" && !(m[1] == "v1" && onlyKubeconfigKinds(s)) {
			return true
		}
	}
	return false
}

var kindLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`(?m)^\s*"?kind"?\s*:\s*"?([^"\s,#]+)`) })

// onlyKubeconfigKinds reports whether every kind s names is a tool's kind
// of the core group (a kubeconfig's Config).
func onlyKubeconfigKinds(s string) bool {
	ms := kindLine().FindAllStringSubmatch(s, -1)
	for _, m := range ms {
		if toolKinds[[2]string{"v1", m[1]}] == "" {
			return false
		}
	}
	return len(ms) > 0
}
