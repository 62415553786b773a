// Package helm renders Helm charts (a directory holding Chart.yaml, or a
// packaged .tgz) in-process as helm template would, into manifest Objects
// that point at the template line each field came from.
//
// Charts are read through the confined reader of package manifest
// (internal/confine) and never from the network; Options says with which
// release and values. Templates are never read as plain manifests. A
// chart renders within maxHelmOutputBytes and its time bound (helmbound.go,
// helmfuncs.go). lookup reads what Options.Lookup returns (nothing without
// it), with the data of Secrets withheld when Options.WithholdSecretData;
// a chart that generates values or reads a Secret's data renders again,
// and the fields that differ are marked in Object.Kept (helmkept.go,
// helmgen.go, helmlookupfunc.go); those renders parse only the templates
// whose output changed (helmreuse.go). A chart's CRD files are parsed
// while its templates render (helmcrdparse.go).
//
// Go's default HTTP transport refuses every request helm code makes: this
// package installs the guard of internal/netguard in its init (helmnet.go),
// so any program that renders charts has it, with or without
// manifest/kustomize. This package never walks directories and never builds a
// kustomization: manifest/loader finds charts, manifest/kustomize renders
// the helmCharts of a kustomization through Render.
package helm
