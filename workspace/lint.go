package workspace

import (
	"fmt"
	"slices"

	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/helm"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

// Set is a set of manifests to lint: what to read and what it is for.
type Set struct {
	// Paths are the files and directories to read (a project reads its
	// own: ProjectLint).
	Paths []string
	// Namespace is the namespace the set is meant for ("" when not known):
	// namespace-mismatch checks against it and a chart renders in it.
	Namespace string
	// Lookup is what a chart's lookup reads (nil: nothing, as in helm
	// template); Withhold keeps the data of looked-up Secrets from the
	// templates (plan).
	Lookup   helm.Lookup
	Withhold bool
}

// Lint is what lint.Check takes for the set s: kubeplan.yaml's settings
// with the overrides applied (a flag over kubeplan.yaml over the
// default). Files are confined to the checkout and named relative to it
// when the workspace has one.
func (w *Workspace) Lint(s Set) (lint.Input, lint.Options, error) {
	cfg, ov := w.Config, w.o.Overrides
	opts := lint.Options{
		Namespace:            s.Namespace,
		IgnoreMissingSchemas: cfg.IgnoreMissingSchemas || ov.IgnoreMissingSchemas,
		Concurrency:          ov.Concurrency,
		Rules:                map[string]lint.RuleSetting{},
	}
	var err error
	if opts.KubeVersion, err = lint.NormalizeKubeVersion(ov.kubeVersion(cfg.KubeVersion)); err != nil {
		return lint.Input{}, lint.Options{}, err
	}
	if opts.PodSecurity, err = podSecurity(cfg, ov.PodSecurity); err != nil {
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
		Paths: s.Paths,
		Load: loader.Options{Exclude: w.exclude(), Stdin: w.o.Stdin, Concurrency: ov.Concurrency, Context: w.o.Context,
			Root: w.o.Checkout, Decryption: w.decryption()},
		CRDPaths:    append(cfg.CRDPaths(), ov.CRDs...),
		PolicyPaths: append(cfg.PolicyPaths(), ov.Policies...),
		Rename:      RelativeTo(w.o.Checkout),
	}
	if !ov.Decrypt && len(ov.KeyFiles) > 0 && in.Load.Decryption.KeysErr != nil {
		return lint.Input{}, lint.Options{}, in.Load.Decryption.KeysErr
	}
	// A chart among the paths renders as helm template -n NAMESPACE
	// --kube-version would: .Release.Namespace is the set's namespace.
	in.Load.Helm = helm.Options{Namespace: s.Namespace, KubeVersion: opts.KubeVersion, Lookup: s.Lookup, WithholdSecretData: s.Lookup != nil && s.Withhold}
	return in, opts, nil
}

// exclude are the globs of paths not read: kubeplan.yaml's exclude and
// ignore, and --exclude.
func (w *Workspace) exclude() []string {
	return slices.Concat(w.Config.ExcludePatterns(), w.Config.IgnorePatterns(), w.Config.GuardFilePatterns(), w.o.Overrides.Exclude)
}

// decryption is how files are read: as in git for lint (the keys at hand
// verify MACs; none is no error), decrypted for plan and apply. The keys
// are read at each call, so a loop sees a rotated key file; a key file
// that cannot be read fails only a run that needs a key.
func (w *Workspace) decryption() manifest.Decryption {
	keys, err := sops.LoadKeys(sops.KeyOptions{Files: w.o.Overrides.KeyFiles})
	if !w.o.Overrides.Decrypt {
		if err != nil {
			return manifest.Decryption{KeysErr: err}
		}
		return manifest.Decryption{Keys: keys}
	}
	return manifest.Decryption{Decrypt: true, Keys: keys, KeysErr: err}
}
