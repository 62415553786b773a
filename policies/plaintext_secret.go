package policies

import "github.com/kubeplan/kubeplan/manifest"

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
		if v, _ := o.Get(field); holdsValue(v) {
			// Never quote a value or key here: the message ends up in logs,
			// PR comments and SARIF.
			return []Violation{{
				Object: o,
				Path:   []string{field},
				Message: "Secret has " + field + ", so its values would be stored in git in plain text (base64 is not encryption); " +
					"encrypt it with SOPS, or use a SealedSecret or an ExternalSecret instead",
			}}
		}
	}
	return nil
}

// holdsValue reports whether a Secret's data or stringData holds at least
// one value that is not empty: a map of only "" (or null) values stores
// nothing secret ("data: {csrf: \"\"}" is a placeholder a controller fills).
func holdsValue(v any) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false // not a map: not a Secret's data; the schema check reports it
	}
	for _, val := range m {
		if val != nil && val != "" {
			return true
		}
	}
	return false
}
