// Package podrefs finds what a pod template needs to exist before its pods
// can start: the Secrets, ConfigMaps, ServiceAccount and
// PersistentVolumeClaims it names, and what a set of objects provides of
// them (the objects themselves, and the Secrets a SealedSecret or an
// ExternalSecret will create). Plan warns about a reference that neither
// the set nor the cluster has (plan/refs.go); a failed wait's diagnosis
// masks the values of every Secret a pod references, optional ones
// included (All; health/mask.go).
package podrefs
