package sops

import "strings"

// shouldBeEncrypted reports whether SOPS encrypts the value at path (the
// mapping keys on the way to it) under the file's rules: everything, minus
// keys with unencrypted_suffix or matching unencrypted_regex; with
// encrypted_suffix or encrypted_regex, only the keys they name.
func (m *Metadata) shouldBeEncrypted(path []string) bool {
	encrypted := true
	if m.UnencryptedSuffix != "" && anyKey(path, func(k string) bool { return strings.HasSuffix(k, m.UnencryptedSuffix) }) {
		encrypted = false
	}
	if m.EncryptedSuffix != "" {
		encrypted = anyKey(path, func(k string) bool { return strings.HasSuffix(k, m.EncryptedSuffix) })
	}
	if m.UnencryptedRegex != nil && anyKey(path, m.UnencryptedRegex.MatchString) {
		encrypted = false
	}
	if m.EncryptedRegex != nil {
		encrypted = anyKey(path, m.EncryptedRegex.MatchString)
	}
	return encrypted
}

// ShouldBeEncrypted is shouldBeEncrypted for lint: a value at path in the
// clear where this is true was not encrypted by SOPS (added by hand).
func (m *Metadata) ShouldBeEncrypted(path []string) bool { return m.shouldBeEncrypted(path) }

func anyKey(path []string, f func(string) bool) bool {
	for _, k := range path {
		if f(k) {
			return true
		}
	}
	return false
}
