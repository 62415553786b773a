package lint

import (
	"fmt"

	"github.com/kubeplan/kubeplan/internal/kubeapi"
	"github.com/kubeplan/kubeplan/manifest"
)

// Options control a lint run.
type Options struct {
	// KubeVersion is the Kubernetes minor version to check served APIs
	// against ("1.37"); empty means kubeapi.KubeVersion.
	KubeVersion string
	// Namespace is the namespace the set is meant for, "" if not given.
	Namespace string
	// NamespaceFrom names where Namespace comes from in messages ("" is
	// --namespace; a project's namespace when it is the project's).
	NamespaceFrom string
	// CRDs are extra CustomResourceDefinitions (from --crds) that
	// validate custom resources but are not themselves linted.
	CRDs []*manifest.Object
	// IgnoreMissingSchemas turns "no schema for this kind" into a warning.
	IgnoreMissingSchemas bool
	// PodSecurity are the Pod Security Admission defaults and exemptions
	// the pod-security rule judges pod templates with (a Namespace of the
	// set overrides the defaults with its labels); nil is privileged.
	PodSecurity *PodSecurity
	// LiveNamespaceLabels, when set (plan), reads the labels of a live
	// Namespace the set does not hold: its pod-security.kubernetes.io
	// labels judge the namespace's pod templates as a Namespace of the
	// set would. ok is false when the Namespace does not exist or cannot
	// be read (the defaults judge then). It is called at most once per
	// namespace, from several goroutines.
	LiveNamespaceLabels func(name string) (labels map[string]string, ok bool)
	// Rules re-grades or disables rules by id.
	Rules map[string]RuleSetting
	// Concurrency bounds parallel validation (default: CPUs).
	Concurrency int
	// Loaded, when set, sees every batch of objects as it is loaded,
	// before any finding is reported (GitHub mode masks the Secret values
	// in them). It may be called from several goroutines at once.
	Loaded func([]*manifest.Object)
	// ListObjects asks Check for Report.Linted, the list of the objects
	// linted (file, line, name), for views of every object (JUnit).
	ListObjects bool

	// group, when set, is told which group (project) runGroups lints
	// next, before it loads it: the ordering annotations are resolved per
	// project (orderCollector).
	group func(int)

	// crdCacheBytes bounds the compiled CRD schemas kept (0:
	// DefaultCRDCacheBytes); tests set it.
	crdCacheBytes int64
}

// RuleSetting is what a config file says about one rule.
type RuleSetting struct {
	Off      bool
	Severity Severity
}

// ParseRuleSetting reads "off", "error", "warning" or "info".
func ParseRuleSetting(s string) (RuleSetting, error) {
	if s == "off" || s == "disabled" || s == "false" {
		return RuleSetting{Off: true}, nil
	}
	sev, err := ParseSeverity(s)
	if err != nil {
		return RuleSetting{}, fmt.Errorf("rule setting %q: want off, error, warning or info", s)
	}
	return RuleSetting{Severity: sev}, nil
}

// NormalizeKubeVersion turns "v1.33.2", "1.33" into "1.33" and checks that
// the version is one kubeplan has an API index for (kubeapi.Normalize).
func NormalizeKubeVersion(v string) (string, error) {
	s, err := kubeapi.Normalize(v)
	if err != nil {
		return "", fmt.Errorf("unsupported --kube-version %q: %w", v, err)
	}
	return s, nil
}
