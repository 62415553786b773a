// Package manifest loads Kubernetes manifests from files, directories,
// standard input and kustomize directories into Objects that remember where
// every field came from: file, document index, and line:column.
//
// Loading never panics on bad input. Problems with the input itself (invalid
// YAML, duplicate keys, alias bombs, binary files, documents that are not
// objects) are returned as *Problem values carrying file:line:col, so lint can
// report them beside schema and policy findings. Only failures of the tool or
// the environment (a path that does not exist, an unreadable directory) are
// returned as errors.
//
// Nothing outside the input is read (internal/confine, through files.go):
// every path is resolved and must stay inside its root (Options.Root, else
// the checkout holding the argument, else the argument itself), only
// regular files of at most MaxFileBytes are opened, and a refusal is an
// error wrapping ErrRefused that names the file and where it points.
// Kustomize builds see the disk through rootFS (kustomizefs.go), with the
// same rules, and kustomizations and builtin plugin configs naming remote
// files are refused before kustomize could fetch anything
// (kustomizeremote.go, kustomizeplugin.go). Go's default HTTP transport
// refuses every request kustomize or helm code makes (kustomizenet.go), so
// nothing can reach the network from a build or a render.
//
// Helm charts (a directory holding Chart.yaml, or a packaged .tgz, named or
// walked into) are rendered in-process as helm template would (helm.go and
// the helm*.go files), reading through the same confined reader and never
// the network; Options.Helm says with which release and values. Their
// templates are never read as plain manifests. A chart renders within
// MaxHelmOutputBytes and its time bound (helmbound.go, helmfuncs.go).
// lookup reads what HelmOptions.Lookup returns (nothing without it), with
// the data of Secrets withheld when HelmOptions.WithholdSecretData; a
// chart that generates values or reads a Secret's data renders again, and
// the fields that differ are marked in Object.Kept (helmkept.go,
// helmgen.go, helmlookupfunc.go).
package manifest
