package sops

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"filippo.io/age"
	"github.com/ProtonMail/go-crypto/openpgp"
)

// Keys are the private keys a run may decrypt with.
type Keys struct {
	Age []age.Identity
	PGP openpgp.EntityList
	// Sources names where the keys came from ("SOPS_AGE_KEY_FILE
	// /run/keys.txt"), for messages; never the keys.
	Sources []string
}

// Empty reports whether there is no key at all.
func (k *Keys) Empty() bool { return k == nil || len(k.Age) == 0 && len(k.PGP) == 0 }

// KeyOptions say where keys are read from, as SOPS reads them.
type KeyOptions struct {
	// Files are --decryption-key-file: each holds age identities (the
	// keys.txt format age-keygen writes) or an ASCII-armored PGP private
	// key.
	Files []string
	// Getenv reads SOPS_AGE_KEY, SOPS_AGE_KEY_FILE and XDG_CONFIG_HOME;
	// os.Getenv when nil.
	Getenv func(string) string
}

// LoadKeys reads the keys of opts: the files given, SOPS_AGE_KEY (the
// identities themselves), SOPS_AGE_KEY_FILE, and SOPS's default age key
// file ($XDG_CONFIG_HOME/sops/age/keys.txt) when it exists. A file given
// that cannot be read or holds no key is an error naming it.
func LoadKeys(opts KeyOptions) (*Keys, error) {
	getenv := opts.Getenv
	if getenv == nil {
		getenv = os.Getenv
	}
	k := &Keys{}
	for _, f := range opts.Files {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("--decryption-key-file: %w", err)
		}
		if err := k.add(data, f); err != nil {
			return nil, fmt.Errorf("--decryption-key-file %s: %w", f, err)
		}
	}
	if v := getenv("SOPS_AGE_KEY"); v != "" {
		if err := k.add([]byte(v), "SOPS_AGE_KEY"); err != nil {
			return nil, fmt.Errorf("SOPS_AGE_KEY: %w", err)
		}
	}
	if f := getenv("SOPS_AGE_KEY_FILE"); f != "" {
		data, err := os.ReadFile(f)
		if err != nil {
			return nil, fmt.Errorf("SOPS_AGE_KEY_FILE: %w", err)
		}
		if err := k.add(data, "SOPS_AGE_KEY_FILE "+f); err != nil {
			return nil, fmt.Errorf("SOPS_AGE_KEY_FILE %s: %w", f, err)
		}
	} else if f := defaultAgeKeyFile(getenv); f != "" {
		data, err := os.ReadFile(f)
		switch {
		case errors.Is(err, fs.ErrNotExist):
		case err != nil:
			return nil, fmt.Errorf("reading SOPS's age key file: %w", err)
		default:
			if err := k.add(data, f); err != nil {
				return nil, fmt.Errorf("%s: %w", f, err)
			}
		}
	}
	return k, nil
}

// defaultAgeKeyFile is where SOPS looks for age keys when
// SOPS_AGE_KEY_FILE is not set.
func defaultAgeKeyFile(getenv func(string) string) string {
	dir := getenv("XDG_CONFIG_HOME")
	if dir == "" {
		var err error
		if dir, err = os.UserConfigDir(); err != nil {
			return ""
		}
	}
	return filepath.Join(dir, "sops", "age", "keys.txt")
}

// add reads age identities or an armored PGP private key from data.
func (k *Keys) add(data []byte, source string) error {
	if bytes.Contains(data, []byte("-----BEGIN PGP PRIVATE KEY BLOCK-----")) {
		el, err := openpgp.ReadArmoredKeyRing(bytes.NewReader(data))
		if err != nil {
			return fmt.Errorf("not a PGP private key: %w", err)
		}
		k.PGP = append(k.PGP, el...)
		k.Sources = append(k.Sources, source)
		return nil
	}
	ids, err := age.ParseIdentities(strings.NewReader(string(data)))
	if err != nil {
		return fmt.Errorf("not an age identity file (AGE-SECRET-KEY-1... lines) nor a PGP private key: %w", err)
	}
	k.Age = append(k.Age, ids...)
	k.Sources = append(k.Sources, source)
	return nil
}
