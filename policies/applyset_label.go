package policies

import "github.com/kubeplan/kubeplan/manifest"

// partOfLabel marks an ApplySet member; the tool applying the set sets it.
const partOfLabel = "applyset.kubernetes.io/part-of"

var applysetLabel = Rule{
	ID:          "applyset-label",
	Severity:    SeverityError,
	Description: "input must not set the " + partOfLabel + " label; the tool applying the ApplySet sets it",
	Check:       eachObject(checkApplysetLabel),
}

func checkApplysetLabel(o *manifest.Object, _ Options) []Violation {
	labels, _ := o.Get("metadata", "labels")
	m, _ := labels.(map[string]any)
	if _, ok := m[partOfLabel]; !ok {
		return nil
	}
	return []Violation{{
		Object: o,
		Path:   []string{"metadata", "labels", partOfLabel},
		Message: "the label " + partOfLabel + " is set by the tool managing the ApplySet (kubectl refuses input carrying it too); " +
			"remove it from the manifest",
	}}
}
