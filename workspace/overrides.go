package workspace

// Overrides are the settings of the command line, parsed from the flags'
// values (cmd/kubeplan fills it, no cobra here). Each one set is applied
// over kubeplan.yaml, whose settings are applied over the defaults; lists
// are added to kubeplan.yaml's.
type Overrides struct {
	// ConfigFile is --config: the config file to read instead of the
	// kubeplan.yaml found walking up ("" to discover it).
	ConfigFile string
	// KubeVersion is --kube-version when given (nil: kubeplan.yaml's
	// kubeVersion, else the default).
	KubeVersion *string
	// Exclude, CRDs and Policies are --exclude, --crds and --policies:
	// added to kubeplan.yaml's exclude, crds and policies.
	Exclude  []string
	CRDs     []string
	Policies []string
	// IgnoreMissingSchemas is --ignore-missing-schemas: on when it or
	// kubeplan.yaml's ignoreMissingSchemas is.
	IgnoreMissingSchemas bool
	// PodSecurity is --pod-security LEVEL[:VERSION]: the enforce level of
	// the pod-security rule, over kubeplan.yaml's podSecurity.enforce.
	PodSecurity string
	// Concurrency bounds the files read at once (0: the loader's default).
	Concurrency int
	// Decrypt is set for the verbs that send objects to a cluster (plan,
	// apply, serve): SOPS-encrypted files are decrypted in memory. Without
	// it (lint) the keys at hand only verify MACs.
	Decrypt bool
	// KeyFiles are --decryption-key-file.
	KeyFiles []string
	// Projects, All and ChangedSince are --project (repeatable), --all and
	// --changed-since: which projects a run is over.
	Projects     []string
	All          bool
	ChangedSince string
}

// Selecting reports whether the overrides select projects: the run is
// over projects, not over paths.
func (o Overrides) Selecting() bool {
	return o.All || len(o.Projects) > 0 || o.ChangedSince != ""
}

// kubeVersion is the Kubernetes version of the run before normalising:
// --kube-version, else kubeplan.yaml's.
func (o Overrides) kubeVersion(fromConfig string) string {
	if o.KubeVersion != nil {
		return *o.KubeVersion
	}
	return fromConfig
}
