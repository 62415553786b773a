// Package kustomize builds kustomization directories in-process, as
// kustomize build would, into manifest Objects that point at the file and
// line each field came from (kustomizeorigin.go, kustomizeblame.go).
//
// Kustomize sees the disk through rootFS (kustomizefs.go): every path is
// resolved and must stay inside the root the loader gives, and only
// regular files of at most manifest.MaxFileBytes are read. Kustomizations
// and builtin plugin configs naming remote files are refused before
// kustomize could fetch anything (kustomizeremote.go, kustomizeplugin.go),
// and Go's default HTTP transport refuses every request kustomize or helm
// code makes (internal/netguard, installed in kustomizenet.go), so nothing
// can reach the network from a build or a render. SOPS-encrypted files a kustomization reads are
// decrypted in memory (kustomizesops.go); the helmCharts field renders
// through package manifest/helm (helmkustomize.go).
//
// This package never walks directories or decides what is a
// kustomization among the paths given: manifest/loader does.
package kustomize
