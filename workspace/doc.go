// Package workspace resolves what a run works on and with which settings:
// it opens kubeplan.yaml (--config, else the one found walking up to the
// repository root), applies the command line's Overrides over it (a flag
// over kubeplan.yaml over the default), loads and selects the projects
// (--project, --all, --changed-since) and gives each project its lint,
// plan and apply settings: what it reads, the CRDs of the projects it
// depends on, its Kubernetes version, its Helm options, the checkout
// root its files are confined to and named relative to, its change
// windows, and the guards (kubeplan.yaml's rules over plans, compiled
// once per workspace and shared by its projects).
//
// It sits between project and internal/config below and run and serve
// above: cmd/kubeplan parses flags into Overrides and opens a Workspace;
// serve opens one at each revision it fetches; run takes one.
//
// It never connects to a cluster, never renders, and never reads a file
// outside the workspace's root except kubeplan.yaml and the key files
// the Overrides name.
package workspace
