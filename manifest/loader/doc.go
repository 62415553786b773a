// Package loader loads Kubernetes manifests from files, directories,
// standard input, kustomization directories and Helm charts into
// manifest Objects: Load reads them all, Collect lists them as Sources
// to load one at a time.
//
// It dispatches each path: plain files are parsed by package manifest,
// kustomizations built by manifest/kustomize, charts rendered by
// manifest/helm (Options.Helm says with which release and values). Only
// failures of the tool or the environment (a path that does not exist, an
// unreadable directory) are returned as errors; problems with the input
// are *manifest.Problem values.
//
// Nothing outside the input is read: every path is resolved and must stay
// inside its root (Options.Root, else the checkout holding the argument,
// else the argument itself), and a refusal is an error wrapping
// manifest.ErrRefused that names the file and where it points. Loading
// never panics on bad input and never reaches the network.
package loader
