package sops

import (
	"errors"
	"fmt"
	"io"
	"strings"

	"filippo.io/age"
	"filippo.io/age/armor"
	"github.com/ProtonMail/go-crypto/openpgp"
	pgparmor "github.com/ProtonMail/go-crypto/openpgp/armor"
)

// ErrNoKey is returned when none of the keys opens the file's data key.
var ErrNoKey = errors.New("no key can decrypt it")

// dataKey opens the file's data key with one of keys: an age recipient's
// stanza, or a PGP one. The error names the file's recipients (public
// values) and the providers kubeplan does not use.
func dataKey(m *Metadata, keys *Keys) ([]byte, error) {
	if m.KeyGroups {
		return nil, fmt.Errorf("its data key is split across key_groups (Shamir), which kubeplan does not decrypt; decrypt it with sops first")
	}
	var errs []error
	if keys != nil && len(keys.Age) > 0 {
		for _, r := range m.Age {
			key, err := openAge(r.Enc, keys.Age)
			if err == nil {
				return key, nil
			}
			errs = append(errs, err)
		}
	}
	if keys != nil && len(keys.PGP) > 0 {
		for _, r := range m.PGP {
			key, err := openPGP(r.Enc, keys.PGP)
			if err == nil {
				return key, nil
			}
			errs = append(errs, err)
		}
	}
	msg := "it is encrypted for " + strings.Join(m.Recipients(), ", ")
	switch {
	case keys.Empty():
		msg += "; no key was given: set SOPS_AGE_KEY_FILE or SOPS_AGE_KEY, or pass --decryption-key-file"
	case len(m.Age) == 0 && len(m.PGP) == 0:
		msg += "; kubeplan decrypts with age and PGP keys only (cloud KMS providers are not built in): add an age recipient with sops updatekeys, or decrypt it with sops first"
	default:
		msg += "; none of the keys given (" + strings.Join(keys.Sources, ", ") + ") is one of them"
	}
	return nil, fmt.Errorf("%w: %s", ErrNoKey, msg)
}

// openAge decrypts an armored age ciphertext of the data key.
func openAge(enc string, ids []age.Identity) ([]byte, error) {
	r, err := age.Decrypt(armor.NewReader(strings.NewReader(enc)), ids...)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(r, 1024))
}

// openPGP decrypts an armored PGP message holding the data key.
func openPGP(enc string, keyring openpgp.EntityList) ([]byte, error) {
	block, err := pgparmor.Decode(strings.NewReader(enc))
	if err != nil {
		return nil, err
	}
	md, err := openpgp.ReadMessage(block.Body, keyring, nil, nil)
	if err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(md.UnverifiedBody, 1024))
}
