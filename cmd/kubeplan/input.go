package main

import (
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest"
)

// inputFlags say what to read and how to lint it: lint, plan and apply.
type inputFlags struct {
	kubeVersion   string
	configFile    string
	exclude       []string
	crds          []string
	policies      []string // lint's --policies
	ignoreMissing bool
	concurrency   int
	// noticed is set once the legacy config name was noticed (see config).
	noticed bool
	// from is where config discovery starts ("" for the working directory).
	from string
	// decrypt is set by plan and apply (addDecrypt): SOPS-encrypted files
	// are decrypted in memory with the keys of keyFiles and SOPS's
	// environment variables.
	decrypt  bool
	keyFiles []string
	// lookup, set by plan and apply for one run, is what a chart's lookup
	// reads (nil for lint: lookup is empty, as in helm template); plan
	// sets withhold: the data of looked-up Secrets is kept from the
	// templates.
	lookup   manifest.HelmLookup
	withhold bool
}

// addDecrypt adds --decryption-key-file, for the verbs that send objects
// to a cluster: SOPS-encrypted files are decrypted in memory.
func (f *inputFlags) addDecrypt(cmd *cobra.Command) {
	f.decrypt = true
	cmd.Flags().StringArrayVar(&f.keyFiles, "decryption-key-file", nil,
		"file of age identities or an armored PGP private key that decrypts SOPS-encrypted manifests (repeatable; SOPS_AGE_KEY_FILE and SOPS_AGE_KEY are read too)")
}

// decryption is how files are read: as in git for lint, decrypted for plan
// and apply. The keys are read at each run, so an interval run sees a
// rotated key file; a key file that cannot be read fails only a run that
// needs a key.
// addKeyFile adds --decryption-key-file to lint: with a key at hand
// (the flag or SOPS's environment variables), lint verifies the MAC of
// every SOPS-encrypted file it reads.
func (f *inputFlags) addKeyFile(cmd *cobra.Command) {
	cmd.Flags().StringArrayVar(&f.keyFiles, "decryption-key-file", nil,
		"file of age identities or an armored PGP private key: lint verifies the MAC of every SOPS-encrypted file with it (repeatable; SOPS_AGE_KEY_FILE and SOPS_AGE_KEY are read too)")
}

func (f *inputFlags) decryption() manifest.Decryption {
	if !f.decrypt {
		// lint: the keys at hand verify MACs; none is no error.
		keys, err := sops.LoadKeys(sops.KeyOptions{Files: f.keyFiles})
		if err != nil {
			return manifest.Decryption{KeysErr: err}
		}
		return manifest.Decryption{Keys: keys}
	}
	keys, err := sops.LoadKeys(sops.KeyOptions{Files: f.keyFiles})
	return manifest.Decryption{Decrypt: true, Keys: keys, KeysErr: err}
}

func (f *inputFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.kubeVersion, "kube-version", "", "Kubernetes version to check served APIs against (1.33 to 1.37; default 1.37)")
	fl.StringVar(&f.configFile, "config", "", configFlagHelp)
	fl.StringArrayVar(&f.exclude, "exclude", nil, "glob of paths not to read (repeatable; ** matches directories)")
	fl.StringArrayVar(&f.crds, "crds", nil, "file or directory of extra CustomResourceDefinitions (repeatable)")
	fl.BoolVar(&f.ignoreMissing, "ignore-missing-schemas", false, "report custom resources without a CRD as warnings, not errors")
}

// check reads the config file and the flags into what lint.Check takes.
// namespace is the namespace the set is meant for ("" when not known).
func (f *inputFlags) check(cmd *cobra.Command, s streams, paths []string, namespace string) (lint.Input, lint.Options, error) {
	cfg, err := f.config(s)
	if err != nil {
		return lint.Input{}, lint.Options{}, err
	}
	return f.checkWith(cmd, s, cfg, paths, namespace)
}

// checkWith is check with the config already read.
func (f *inputFlags) checkWith(cmd *cobra.Command, s streams, cfg *config.Config, paths []string, namespace string) (lint.Input, lint.Options, error) {
	var err error
	opts := lint.Options{
		KubeVersion:          cfg.KubeVersion,
		Namespace:            namespace,
		IgnoreMissingSchemas: cfg.IgnoreMissingSchemas || f.ignoreMissing,
		Concurrency:          f.concurrency,
		Rules:                map[string]lint.RuleSetting{},
	}
	if cmd.Flags().Changed("kube-version") {
		opts.KubeVersion = f.kubeVersion
	}
	if opts.KubeVersion, err = lint.NormalizeKubeVersion(opts.KubeVersion); err != nil {
		return lint.Input{}, lint.Options{}, err
	}
	for id, v := range cfg.Rules {
		if !lint.KnownRule(id) {
			return lint.Input{}, lint.Options{}, fmt.Errorf("%s: unknown rule %q (kubeplan lint --list-rules shows them)", cfg.Where(id), id)
		}
		rs, err := lint.ParseRuleSetting(v)
		if err != nil {
			return lint.Input{}, lint.Options{}, fmt.Errorf("%s: %w", cfg.Where(id), err)
		}
		opts.Rules[id] = rs
	}
	in := lint.Input{
		Paths:       paths,
		Load:        manifest.Options{Exclude: slices.Concat(cfg.ExcludePatterns(), cfg.IgnorePatterns(), f.exclude), Stdin: s.in, Concurrency: f.concurrency, Context: cmd.Context()},
		CRDPaths:    append(cfg.CRDPaths(), f.crds...),
		PolicyPaths: append(cfg.PolicyPaths(), f.policies...),
	}
	in.Load.Decryption = f.decryption()
	if !f.decrypt && len(f.keyFiles) > 0 && in.Load.Decryption.KeysErr != nil {
		return lint.Input{}, lint.Options{}, in.Load.Decryption.KeysErr
	}
	// A chart among the paths renders as helm template -n NAMESPACE
	// --kube-version would: .Release.Namespace is the set's namespace.
	in.Load.Helm = manifest.HelmOptions{Namespace: namespace, KubeVersion: opts.KubeVersion, Lookup: f.lookup, WithholdSecretData: f.lookup != nil && f.withhold}
	return in, opts, nil
}

// configFlagHelp is the help of --config.
const configFlagHelp = "config file (default: kubeplan.yaml found walking up from the working directory to the repository root)"

// config is --config, else the kubeplan.yaml found walking up from the
// working directory to the repository root. It is read at every call (apply
// --interval sees edits); a legacy .kubeplan.yaml is noticed on stderr once
// per run.
//
// A run over projects sets from to the repository directory it was given:
// it reads that repository's config wherever it is started from.
func (f *inputFlags) config(s streams) (*config.Config, error) {
	var cfg *config.Config
	var err error
	from := f.from
	if from == "" {
		from = "."
	}
	if f.configFile != "" {
		cfg, err = config.Load(f.configFile, true)
	} else {
		cfg, err = config.Discover(from)
	}
	if err != nil {
		return nil, err
	}
	if cfg.Legacy && !f.noticed {
		f.noticed = true
		fmt.Fprintf(s.err, "kubeplan: %s is read for now; rename it to %s\n", config.LegacyFile, config.DefaultFile)
	}
	return cfg, nil
}

// relativeTo names files relative to root, so findings read
// "manifests/deployment.yaml:6:13" rather than a path in the git cache.
func relativeTo(root string) func(string) string {
	if root == "" {
		return nil
	}
	return func(p string) string {
		if r, err := filepath.Rel(root, p); err == nil && !strings.HasPrefix(r, "..") {
			return r
		}
		return p
	}
}
