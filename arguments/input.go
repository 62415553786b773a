package arguments

import (
	"github.com/spf13/pflag"

	"github.com/kubeplan/kubeplan/workspace"
)

// Input says what to read and how to lint it: lint, plan and apply (status
// and projects take its ConfigFile and Exclude alone).
type Input struct {
	KubeVersion   string
	ConfigFile    string
	Exclude       []string
	CRDs          []string
	Policies      []string // lint's --policies
	IgnoreMissing bool
	Concurrency   int
	// Decrypt is set by plan and apply (BindDecrypt): SOPS-encrypted files
	// are decrypted in memory with the keys of KeyFiles and SOPS's
	// environment variables.
	Decrypt  bool
	KeyFiles []string
	// noticed is set once the legacy config name was noticed.
	noticed bool
	// kubeVersionSet is whether --kube-version was given (a flag over
	// kubeplan.yaml's kubeVersion).
	kubeVersionSet func() bool
}

// ConfigFlagHelp is the help of --config.
const ConfigFlagHelp = "config file (default: kubeplan.yaml found walking up from the working directory to the repository root)"

// Bind adds the input flags every reading verb shares.
func (f *Input) Bind(fl *pflag.FlagSet) {
	fl.StringVar(&f.KubeVersion, "kube-version", "", "Kubernetes version to check served APIs against (1.33 to 1.37; default 1.37)")
	fl.StringVar(&f.ConfigFile, "config", "", ConfigFlagHelp)
	fl.StringArrayVar(&f.Exclude, "exclude", nil, "glob of paths not to read (repeatable; ** matches directories)")
	fl.StringArrayVar(&f.CRDs, "crds", nil, "file or directory of extra CustomResourceDefinitions (repeatable)")
	fl.BoolVar(&f.IgnoreMissing, "ignore-missing-schemas", false, "report custom resources without a CRD as warnings, not errors")
	f.kubeVersionSet = func() bool { return fl.Changed("kube-version") }
}

// BindDecrypt adds --decryption-key-file, for the verbs that send objects
// to a cluster: SOPS-encrypted files are decrypted in memory. The keys are
// read at each run, so an interval run sees a rotated key file.
func (f *Input) BindDecrypt(fl *pflag.FlagSet) {
	f.Decrypt = true
	fl.StringArrayVar(&f.KeyFiles, "decryption-key-file", nil,
		"file of age identities or an armored PGP private key that decrypts SOPS-encrypted manifests (repeatable; SOPS_AGE_KEY_FILE and SOPS_AGE_KEY are read too)")
}

// BindKeyFile adds --decryption-key-file to lint: with a key at hand (the
// flag or SOPS's environment variables), lint verifies the MAC of every
// SOPS-encrypted file it reads.
func (f *Input) BindKeyFile(fl *pflag.FlagSet) {
	fl.StringArrayVar(&f.KeyFiles, "decryption-key-file", nil,
		"file of age identities or an armored PGP private key: lint verifies the MAC of every SOPS-encrypted file with it (repeatable; SOPS_AGE_KEY_FILE and SOPS_AGE_KEY are read too)")
}

// Overrides are the flags' values, for the workspace to apply over
// kubeplan.yaml; sel, when not nil, adds the project selection.
func (f *Input) Overrides(sel *Select) workspace.Overrides {
	o := workspace.Overrides{ConfigFile: f.ConfigFile, Exclude: f.Exclude, CRDs: f.CRDs, Policies: f.Policies,
		IgnoreMissingSchemas: f.IgnoreMissing, Concurrency: f.Concurrency, Decrypt: f.Decrypt, KeyFiles: f.KeyFiles}
	if f.kubeVersionSet != nil && f.kubeVersionSet() {
		v := f.KubeVersion
		o.KubeVersion = &v
	}
	if sel != nil {
		o.Projects, o.All, o.ChangedSince = sel.Projects, sel.All, sel.ChangedSince
	}
	return o
}

// FirstNotice reports whether this is the first time the legacy config
// name is noticed in this invocation (a notice is printed once per run).
func (f *Input) FirstNotice() bool {
	first := !f.noticed
	f.noticed = true
	return first
}
