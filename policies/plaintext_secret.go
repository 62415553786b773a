package policies

import (
	"sort"

	"github.com/kubeplan/kubeplan/manifest"
)

var plaintextSecret = Rule{
	ID:          "plaintext-secret",
	Severity:    SeverityError,
	Description: "Secrets must not carry plain-text data or stringData in git (use SOPS, SealedSecrets or ExternalSecrets)",
	Check:       eachObject(checkPlaintextSecret),
}

func checkPlaintextSecret(o *manifest.Object, _ Options) []Violation {
	if o.Kind != "Secret" || o.Group() != "" {
		return nil
	}
	if _, ok := o.Content["sops"]; ok || o.Encrypted {
		return nil // SOPS-encrypted: in git the values are ciphertext
	}
	for _, field := range []string{"data", "stringData"} {
		v, _ := o.Get(field)
		literal, kept := fromRepository(o, field, v)
		if len(literal) == 0 {
			continue
		}
		// Never quote a value or key here: the message ends up in logs,
		// PR comments and SARIF.
		msg := "Secret has " + field + ", so its values would be stored in git in plain text (base64 is not encryption); " +
			"encrypt it with SOPS, or use a SealedSecret or an ExternalSecret instead"
		path := []string{field}
		if kept > 0 {
			// the chart generates or looks up the others: point at the
			// first value that is in the repository
			path = []string{field, literal[0]}
			msg = "Secret has " + field + " values from the repository (the chart generates or looks up the others), so they would be stored in git in plain text (base64 is not encryption); " +
				"encrypt them with SOPS, or use a SealedSecret or an ExternalSecret instead"
		}
		return []Violation{{Object: o, Path: path, Message: msg}}
	}
	return nil
}

// fromRepository are the keys of a Secret's data or stringData (v) whose
// value is not empty and comes from the repository, sorted, and how many
// values a chart generated or derived from a looked-up Secret instead
// (Object.Kept): those are not in git. A map of only "" (or null) values
// stores nothing secret ("data: {csrf: \"\"}" is a placeholder a
// controller fills).
func fromRepository(o *manifest.Object, field string, v any) (literal []string, kept int) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, 0 // not a map: not a Secret's data; the schema check reports it
	}
	for key, val := range m {
		if val == nil || val == "" {
			continue
		}
		if _, k := o.KeptAt(field, key); k {
			kept++
			continue
		}
		literal = append(literal, key)
	}
	sort.Strings(literal)
	return literal, kept
}
