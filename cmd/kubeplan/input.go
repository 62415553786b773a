package main

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/workspace"
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
	// decrypt is set by plan and apply (addDecrypt): SOPS-encrypted files
	// are decrypted in memory with the keys of keyFiles and SOPS's
	// environment variables.
	decrypt  bool
	keyFiles []string
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

func (f *inputFlags) add(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringVar(&f.kubeVersion, "kube-version", "", "Kubernetes version to check served APIs against (1.33 to 1.37; default 1.37)")
	fl.StringVar(&f.configFile, "config", "", configFlagHelp)
	fl.StringArrayVar(&f.exclude, "exclude", nil, "glob of paths not to read (repeatable; ** matches directories)")
	fl.StringArrayVar(&f.crds, "crds", nil, "file or directory of extra CustomResourceDefinitions (repeatable)")
	fl.BoolVar(&f.ignoreMissing, "ignore-missing-schemas", false, "report custom resources without a CRD as warnings, not errors")
}

// overrides are the flags' values, for the workspace to apply over
// kubeplan.yaml; sel, when not nil, adds the project selection.
func (f *inputFlags) overrides(cmd *cobra.Command, sel *selectFlags) workspace.Overrides {
	o := workspace.Overrides{ConfigFile: f.configFile, Exclude: f.exclude, CRDs: f.crds, Policies: f.policies,
		IgnoreMissingSchemas: f.ignoreMissing, Concurrency: f.concurrency, Decrypt: f.decrypt, KeyFiles: f.keyFiles}
	if cmd.Flags().Changed("kube-version") {
		v := f.kubeVersion
		o.KubeVersion = &v
	}
	if sel != nil {
		o.Projects, o.All, o.ChangedSince = sel.projects, sel.all, sel.changedSince
	}
	return o
}

// open opens the workspace wo says, with the flags' overrides (and sel's
// selection): kubeplan.yaml is --config, else the one found walking up
// from wo.From. It is read at every call (apply --interval sees edits); a
// legacy .kubeplan.yaml is noticed on stderr once per run.
func (f *inputFlags) open(cmd *cobra.Command, s streams, sel *selectFlags, wo workspace.Options) (*workspace.Workspace, error) {
	wo.Overrides = f.overrides(cmd, sel)
	wo.Stdin, wo.Context = s.in, cmd.Context()
	wo.Legacy = func() {
		if !f.noticed {
			f.noticed = true
			fmt.Fprintln(s.err, workspace.LegacyNotice())
		}
	}
	return workspace.Open(wo)
}

// set is lint's input for the paths, meant for namespace ("" when not
// known), from kubeplan.yaml and the flags. Only lint reads a set this
// way, so a chart's lookup is empty, as in helm template (plan and apply
// go through run, whose lookup reads the cluster).
func (f *inputFlags) set(ws *workspace.Workspace, paths []string, namespace string) (lint.Input, lint.Options, error) {
	return ws.Lint(workspace.Set{Paths: paths, Namespace: namespace})
}

// configFlagHelp is the help of --config.
const configFlagHelp = "config file (default: kubeplan.yaml found walking up from the working directory to the repository root)"
