package rollhash

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"hash"
	"sort"
)

// Annotation is the pod template annotation holding the digest of the
// ConfigMaps and Secrets the template reads.
const Annotation = "kubeplan.dev/config-hash"

// KeyAnnotation is the Secret annotation holding the key its digest is
// an HMAC with.
const KeyAnnotation = "kubeplan.dev/roll-key"

// NewKey returns a random 256-bit key, base64url-encoded, for a Secret
// that has none.
func NewKey() (string, error) {
	b := make([]byte, 32)
	if _, err := rand.Read(b); err != nil {
		return "", fmt.Errorf("reading a random roll key: %w", err)
	}
	return base64.RawURLEncoding.EncodeToString(b), nil
}

// KeyOf is obj's KeyAnnotation, "" when it has none.
func KeyOf(obj map[string]any) string {
	md, _ := obj["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	k, _ := ann[KeyAnnotation].(string)
	return k
}

// ConfigMap is the hex SHA-256 of a ConfigMap's data and binaryData.
func ConfigMap(obj map[string]any) string {
	h := sha256.New()
	writeValues(h, configMapValues(obj))
	return hex.EncodeToString(h.Sum(nil))
}

// Secret is the hex HMAC-SHA256, keyed by key, of a Secret's values: its
// data decoded, with stringData over it, as the API server stores them
// (so a manifest's stringData and the live data it became agree).
func Secret(key string, obj map[string]any) string {
	h := hmac.New(sha256.New, []byte(key))
	writeValues(h, secretValues(obj))
	return hex.EncodeToString(h.Sum(nil))
}

// Ref is one object a template reads, with its digest.
type Ref struct {
	// Name is "configmap/NAME" or "secret/NAME".
	Name   string
	Digest string
}

// Template is the digest a pod template that reads refs carries: a
// SHA-256 over every ref's name and digest, in name order (so the order
// of the template's references does not matter).
func Template(refs []Ref) string {
	rs := append([]Ref(nil), refs...)
	sort.Slice(rs, func(i, j int) bool { return rs[i].Name < rs[j].Name })
	h := sha256.New()
	for _, r := range rs {
		writeField(h, []byte(r.Name))
		writeField(h, []byte(r.Digest))
	}
	return hex.EncodeToString(h.Sum(nil))
}

// configMapValues are the values of a ConfigMap, keyed "d:KEY" for data
// and "b:KEY" for binaryData (as written, base64).
func configMapValues(obj map[string]any) map[string][]byte {
	out := map[string][]byte{}
	for _, f := range []struct{ field, prefix string }{{"data", "d:"}, {"binaryData", "b:"}} {
		m, _ := obj[f.field].(map[string]any)
		for k, v := range m {
			out[f.prefix+k] = []byte(fmt.Sprint(v))
		}
	}
	return out
}

// secretValues are the values of a Secret as the server stores them:
// data decoded from base64 (as written when it does not decode), then
// stringData over it.
func secretValues(obj map[string]any) map[string][]byte {
	out := map[string][]byte{}
	data, _ := obj["data"].(map[string]any)
	for k, v := range data {
		s := fmt.Sprint(v)
		if b, err := base64.StdEncoding.DecodeString(s); err == nil {
			out[k] = b
		} else {
			out[k] = []byte(s)
		}
	}
	sd, _ := obj["stringData"].(map[string]any)
	for k, v := range sd {
		out[k] = []byte(fmt.Sprint(v))
	}
	return out
}

// writeValues writes vals to h in key order, each key and value
// length-prefixed, so no two different maps write the same bytes.
func writeValues(h hash.Hash, vals map[string][]byte) {
	keys := make([]string, 0, len(vals))
	for k := range vals {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		writeField(h, []byte(k))
		writeField(h, vals[k])
	}
}

func writeField(h hash.Hash, b []byte) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(b)))
	h.Write(n[:])
	h.Write(b)
}
