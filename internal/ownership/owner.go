package ownership

import "github.com/kubeplan/kubeplan/internal/applyset"

// Helm's release records: the Secrets (or ConfigMaps) Helm keeps each
// revision of a release in, labelled owner=helm and name=<release>.
const (
	helmRecordOwner = "owner"
	helmRecordName  = "name"
)

// Owner names the tool that manages an object with these labels and
// annotations, whoever it is, or "" when none does: any ApplySet (a
// member, by the set's id; a parent, by its own), then what Foreign
// knows (a Helm release, Flux, Argo CD), then Helm's release records.
// It is what kubeplan orphans asks of every object in a namespace.
func Owner(labels, ann map[string]string) string {
	if id := labels[applyset.LabelPartOf]; id != "" {
		return ApplySetPrefix + id
	}
	if id := labels[applyset.LabelID]; id != "" {
		return "the parent of " + ApplySetPrefix + id
	}
	if m := toolMark(labels, ann); m != "" {
		return m
	}
	if labels[helmRecordOwner] == "helm" && labels[helmRecordName] != "" {
		return "Helm release " + labels[helmRecordName] + " (its record)"
	}
	return ""
}
