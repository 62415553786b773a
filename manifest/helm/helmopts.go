package helm

import "time"

// Options say how a chart is rendered, as helm template would with the
// same flags. The zero value renders with the chart's own values.yaml.
type Options struct {
	// ReleaseName is .Release.Name (default "release-name", as helm
	// template's).
	ReleaseName string
	// Namespace is .Release.Namespace (default "default").
	Namespace string
	// ValuesFiles are values files merged over the chart's values.yaml, in
	// order (helm's -f), paths as given (inside the repository).
	ValuesFiles []string
	// Values are merged over the chart's values.yaml before ValuesFiles
	// (a kustomize helmCharts entry's valuesInline, merged with its
	// valuesFile as its valuesMerge says).
	Values map[string]any
	// Set are values set on top, as helm's --set "a.b=c" (strings parsed
	// as helm parses --set).
	Set []string
	// SkipCRDs leaves out the CustomResourceDefinitions of the chart's
	// crds/ directory and of its subcharts' (helm install --skip-crds).
	// The zero value includes them, first, as helm install applies them.
	SkipCRDs bool
	// KubeVersion ("1.37") and APIVersions fill .Capabilities; empty means
	// the default Kubernetes version kubeplan lints against.
	KubeVersion string
	APIVersions []string
	// SkipHooks drops hooks (objects with a helm.sh/hook annotation), as
	// helm template --no-hooks. Test hooks are always dropped.
	SkipHooks bool
	// Timeout bounds how long the chart may take to render (the command's
	// --timeout where it has one); zero means 60 seconds
	// (defaultHelmTimeout). What a chart renders is bounded by 64 MiB
	// (maxHelmOutputBytes).
	Timeout time.Duration
	// Lookup is what the chart's lookup function reads (plan and apply);
	// nil means lookup returns an empty map (lint, as helm template).
	Lookup Lookup
	// WithholdSecretData keeps the data and stringData values of Secrets
	// that Lookup returns from the templates (plan): fields derived from
	// them are marked Kept with KeptLookedUp instead, so a chart cannot
	// print a Secret's value through a plan.
	WithholdSecretData bool
}
