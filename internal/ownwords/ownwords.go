package ownwords

import (
	"strings"
	"unicode"
)

// phrases are kubeplan's own words, lowercase, with the numbers they carry
// left out (Forges drops a value's digits before it looks).
var phrases = []string{
	"plan:  to add,  to change,  to replace,  to prune,  to release,  to adopt,  unchanged,  drifted.",
	"apply:  added,  changed,  replaced,  pruned,  adopted,  released,  unchanged.",
	"no changes. in sync with",
	"create update replace prune adopt delete drift unchanged configured created pruned deleted replaced serverside-applied",
	"changes present; error warning info kubeplan skipped failed healthy current progressing",
	"approve approval required waiting for",
}

// Forges reports whether hiding v everywhere would hide kubeplan's own
// words: v, without its digits and the spaces and punctuation around
// them, is empty or is part of one of kubeplan's phrases.
func Forges(v string) bool {
	core := strings.Map(func(r rune) rune {
		if unicode.IsDigit(r) {
			return -1
		}
		return unicode.ToLower(r)
	}, v)
	core = strings.TrimFunc(core, func(r rune) bool { return unicode.IsSpace(r) || unicode.IsPunct(r) })
	if core == "" {
		return true
	}
	for _, p := range phrases {
		if strings.Contains(p, core) {
			return true
		}
	}
	return false
}
