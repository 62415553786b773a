package sops

import (
	"crypto/aes"
	"crypto/cipher"
	"encoding/base64"
	"fmt"
	"regexp"
	"sync"
)

// encRe matches an encrypted value.
var encRe = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^ENC\[AES256_GCM,data:(.*),iv:(.+),tag:(.+),type:(.+)\]$`)
})

// IsEncryptedValue reports whether s is a SOPS encrypted value.
func IsEncryptedValue(s string) bool { return encRe().MatchString(s) }

// EncryptedType is the type an encrypted value decrypts to ("str", "int",
// "float", "bool", "bytes", "time", "comment"), "" when s is not one.
func EncryptedType(s string) string {
	m := encRe().FindStringSubmatch(s)
	if m == nil {
		return ""
	}
	return m[4]
}

// decryptValue opens an encrypted value with the data key; aad is the
// value's path ("data:password:") or, for the MAC, lastmodified.
func decryptValue(s string, key []byte, aad string) (plain []byte, typ string, err error) {
	m := encRe().FindStringSubmatch(s)
	if m == nil {
		return nil, "", fmt.Errorf("not a sops encrypted value")
	}
	var parts [3][]byte
	for i := range parts {
		if parts[i], err = base64.StdEncoding.DecodeString(m[i+1]); err != nil {
			return nil, "", fmt.Errorf("a sops encrypted value is not valid base64: %w", err)
		}
	}
	block, err := aes.NewCipher(key)
	if err != nil {
		return nil, "", err
	}
	gcm, err := cipher.NewGCMWithNonceSize(block, len(parts[1]))
	if err != nil {
		return nil, "", err
	}
	plain, err = gcm.Open(nil, parts[1], append(parts[0], parts[2]...), []byte(aad))
	if err != nil {
		return nil, "", fmt.Errorf("the value does not decrypt with the file's data key (tampered with, or moved to another key)")
	}
	return plain, m[4], nil
}
