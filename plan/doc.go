// Package plan computes what applying a set of manifests would change in a
// cluster, without changing it: an RBAC preflight, a server-side dry-run of
// every object (first without force, to find fields someone else changed by
// hand, then with force, to get the object as it will be), a noise-free diff
// between the live object and the dry-run result, and a prune preview from the
// ApplySet the set belongs to. Fields are left to their owners: those
// kubeplan.yaml's yield rules and the built-in ones name (Options.Yield,
// yield.go; the spec.replicas of a workload a HorizontalPodAutoscaler
// scales is hpa.go's), and, without an ApplySet, the set label a live
// object already carries (partof.go). The fields a chart generates or derives from a Secret it
// read with lookup (manifest.Object.Kept) keep their live value, and the
// looked-up ones are never shown (kept.go); Lookup is the charts' lookup
// over the run's client, read-only and cached per run (lookup.go). With
// Options.RollOnConfigChange, each pod template carries a digest of the
// set's ConfigMaps and Secrets it reads, so that its pods roll when their
// data changes (roll.go).
//
// The result is a Plan: plain data, rendered elsewhere (package render) and
// executed by package apply. plan and apply share the dry-run and diff code,
// so what plan shows is what apply does. Save, Load and Detect read and
// write a saved plan.
//
// plan never writes to the cluster (it reads, reviews access and dry-runs),
// never loads manifests (it takes the objects lint kept), and never prints.
package plan
