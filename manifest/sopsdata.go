package manifest

import (
	"encoding/base64"
	"fmt"
	"sort"
	"strings"

	"github.com/kubeplan/kubeplan/internal/sops"
)

// encMarker starts every value SOPS encrypts.
const encMarker = "ENC[AES256_GCM,"

// SopsObjects is the last step of loading objects, for SOPS: a Secret
// whose data value is itself a SOPS document (the base64 of an encrypted
// file, as Flux decrypts it) is decrypted into the format its key names
// (dec.Decrypt), or verified when keys are at hand (lint). An object still
// holding ciphertext or SOPS metadata after decryption (no key, a format
// kubeplan does not know) is a sops-decrypt problem and is dropped, so
// nothing encrypted reaches the cluster; for lint such objects are marked
// Encrypted (their values are not in the clear in git).
func SopsObjects(objs []*Object, probs []*Problem, dec Decryption) ([]*Object, []*Problem) {
	kept := objs[:0]
	for _, o := range objs {
		if o.Kind == "Secret" && allCiphertext(o) {
			o.Encrypted = true // in git, every value is encrypted
		}
		if o.Kind == "Secret" {
			p := secretDocuments(o, dec)
			probs = appendNew(probs, p)
			if len(p) > 0 && dec.Decrypt {
				continue
			}
		}
		path, found := Ciphertext(o)
		if found == "" {
			kept = append(kept, o)
			continue
		}
		if !dec.Decrypt {
			if o.Kind != "Secret" {
				o.Encrypted = true
			}
			kept = append(kept, o)
			continue
		}
		start, end := o.Span(path...)
		probs = append(probs, &Problem{File: o.FileOf(path...), Pos: start, End: end, Rule: RuleSOPSDecrypt,
			Message: fmt.Sprintf("%s %s: %s holds %s after decryption, which must never reach the cluster: decrypt its source with a key kubeplan is given (--decryption-key-file, SOPS_AGE_KEY_FILE, SOPS_AGE_KEY), or encrypt it in a format SOPS and Flux decrypt (YAML, JSON, dotenv, INI, binary)", o.Kind, o.Name, strings.Join(path, "."), found)})
	}
	return kept, probs
}

// secretDocuments decrypts (dec.Decrypt) or verifies (lint with keys) the
// data values of a Secret that are SOPS documents.
func secretDocuments(o *Object, dec Decryption) []*Problem {
	data, _ := o.Content["data"].(map[string]any)
	keys := make([]string, 0, len(data))
	for k := range data {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var probs []*Problem
	for _, k := range keys {
		s, _ := data[k].(string)
		raw, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			continue
		}
		in, ok := sops.Detect(raw)
		if !ok {
			continue
		}
		if !dec.Decrypt && dec.Keys.Empty() {
			continue
		}
		start, end := o.Span("data", k)
		file := o.FileOf("data", k)
		if dec.Decrypt && dec.KeysErr != nil {
			probs = append(probs, &Problem{File: file, Pos: start, End: end, Rule: RuleSOPSDecrypt,
				Message: fmt.Sprintf("data.%s of Secret %s is a SOPS-encrypted %s document that does not decrypt: reading the keys: %v", k, o.Name, in, dec.KeysErr)})
			continue
		}
		plain, err := sops.DecryptFile(raw, in, sops.FormatForPath(k), dec.Keys)
		if err != nil {
			p := sopsProblem(file, start, in, err)
			p.Pos, p.End = start, end // a line of the document, not of this file
			p.Message = fmt.Sprintf("data.%s of Secret %s: %s", k, o.Name, p.Message)
			probs = append(probs, p)
			continue
		}
		if dec.Decrypt {
			data[k] = base64.StdEncoding.EncodeToString(plain)
		}
	}
	return probs
}

// Ciphertext finds a value SOPS encrypted, or its metadata, in o: an
// ENC[...] string anywhere (in a Secret's data, base64-decoded too), a
// top-level "sops" mapping, or the sops_* keys of a dotenv file's
// metadata in a Secret's or ConfigMap's data. found is "" when there is
// none.
func Ciphertext(o *Object) (path []string, found string) {
	if m, ok := o.Content[sops.MetadataKey].(map[string]any); ok {
		if _, ok := m["mac"]; ok {
			return []string{sops.MetadataKey}, "SOPS metadata"
		}
	}
	if o.Kind == "Secret" || o.Kind == "ConfigMap" {
		for _, field := range []string{"data", "stringData", "binaryData"} {
			data, _ := o.Content[field].(map[string]any)
			keys := make([]string, 0, len(data))
			for k := range data {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if strings.HasPrefix(k, "sops_") && (k == "sops_mac" || k == "sops_version" || k == "sops_lastmodified") {
					return []string{field, k}, "SOPS metadata (" + k + ")"
				}
				s, _ := data[k].(string)
				if o.Kind == "Secret" && field == "data" || field == "binaryData" {
					if raw, err := base64.StdEncoding.DecodeString(s); err == nil && strings.Contains(string(raw), encMarker) {
						return []string{field, k}, "a SOPS-encrypted value (ENC[...])"
					}
				}
			}
		}
	}
	if !holdsMarker(o.Content) { // the common case, without sorting keys or making paths
		return nil, ""
	}
	if p := findString(o.Content, nil); p != nil {
		return p, "a SOPS-encrypted value (ENC[...])"
	}
	return nil, ""
}

// holdsMarker reports whether a string under v holds encMarker: findString
// without its order and path, so that a document with none costs no
// allocation.
func holdsMarker(v any) bool {
	switch v := v.(type) {
	case string:
		return strings.Contains(v, encMarker)
	case map[string]any:
		for _, e := range v {
			if holdsMarker(e) {
				return true
			}
		}
	case []any:
		for _, e := range v {
			if holdsMarker(e) {
				return true
			}
		}
	}
	return false
}

// findString is the path of the first string under v holding encMarker
// (map keys in order), nil when none does.
func findString(v any, path []string) []string {
	switch v := v.(type) {
	case string:
		if strings.Contains(v, encMarker) {
			return append([]string{}, path...)
		}
	case map[string]any:
		keys := make([]string, 0, len(v))
		for k := range v {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if p := findString(v[k], append(path, k)); p != nil {
				return p
			}
		}
	case []any:
		for i, e := range v {
			if p := findString(e, append(path, fmt.Sprint(i))); p != nil {
				return p
			}
		}
	}
	return nil
}

// flatSOPSFile is a SOPS file of another format than YAML given as a
// manifest (a generator's input a pre-commit hook passes): no object, its
// MAC verified when keys are at hand.
func flatSOPSFile(file string, data []byte, format sops.Format, dec Decryption) []*Problem {
	if _, p := DecryptFlat(file, data, format, dec); p != nil {
		return []*Problem{p}
	}
	return nil
}

// allCiphertext reports whether every value of a Secret's data and
// stringData is encrypted in git (an ENC[...] value, a SOPS document, the
// sops_* metadata an encrypted dotenv file adds, or empty), and one is:
// such a Secret is no plaintext-secret. A Secret that mixes a value in
// the clear with encrypted ones is not.
func allCiphertext(o *Object) bool {
	found := false
	for _, field := range []string{"data", "stringData"} {
		m, _ := o.Content[field].(map[string]any)
		for k, v := range m {
			s, _ := v.(string)
			if strings.Contains(s, encMarker) {
				found = true
				continue
			}
			if field == "data" {
				if raw, err := base64.StdEncoding.DecodeString(s); err == nil && strings.Contains(string(raw), encMarker) {
					found = true
					continue
				}
			}
			if s == "" || strings.HasPrefix(k, "sops_") || strings.HasSuffix(k, sops.DefaultUnencryptedSuffix) {
				continue
			}
			return false
		}
	}
	return found
}

// appendNew adds the problems of a Secret's documents, but not one that
// says what a problem of the generator input it was made from says (lint
// reads the input as in git: the Secret holds the same encrypted file).
func appendNew(probs, more []*Problem) []*Problem {
	for _, p := range more {
		dup := false
		for _, q := range probs {
			dup = dup || q.Rule == RuleSOPSDecrypt && strings.HasSuffix(p.Message, ": "+q.Message)
		}
		if !dup {
			probs = append(probs, p)
		}
	}
	return probs
}
