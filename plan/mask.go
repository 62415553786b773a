package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"strings"
)

// The strings that stand in for Secret values.
const (
	Masked       = "***"          // unchanged, added or removed
	MaskedBefore = "*** (before)" // changed: the live value
	MaskedAfter  = "*** (after)"  // changed: the planned value
)

// lastAppliedAnnotation is where kubectl apply keeps the object it applied,
// Secret values included.
const lastAppliedAnnotation = "kubectl.kubernetes.io/last-applied-configuration"

// secretFields are the fields of a Secret that hold its values.
var secretFields = []string{"data", "stringData"}

// MaskSecret returns before and after (the live and the planned object; one
// may be nil) with every Secret value replaced, so a diff of the two shows
// which keys were added, removed or changed and no value. When neither is a
// Secret (apiVersion v1, kind Secret) it returns them unchanged; otherwise it
// returns masked deep copies and never changes its arguments.
//
// Every value under data and stringData becomes Masked, except a key whose
// value differs between the two sides: MaskedBefore on the before side,
// MaskedAfter on the after side. The annotation
// kubectl.kubernetes.io/last-applied-configuration holds the Secret again as
// JSON: its data and stringData are masked the same way and it is written
// back as compact JSON; when it is not a JSON object, it becomes Masked as a
// whole. A data or stringData field that is not an object becomes Masked as
// a whole too. The Secret's roll key (rollhash.KeyAnnotation) is masked as
// a value is.
//
// Before that, in an object of any kind, every value decrypted from SOPS
// is hidden in every string and key (see hideDecryptedPair): a copy of
// one in a ConfigMap or an annotation is masked as the Secret's own.
func MaskSecret(before, after map[string]any) (b, a map[string]any) {
	before, after = hideDecryptedPair(before, after)
	if !isSecret(before) && !isSecret(after) {
		return before, after
	}
	b, a = canonObj(before), canonObj(after)
	maskValues(b, a)
	maskLastApplied(b, a)
	maskRollKey(b, a)
	return b, a
}

func isSecret(obj map[string]any) bool {
	return obj != nil && obj["apiVersion"] == "v1" && obj["kind"] == "Secret"
}

func canonObj(obj map[string]any) map[string]any {
	if obj == nil {
		return nil
	}
	return canonMap(obj)
}

// maskValues masks, in place, the values of the secretFields of b and a (the
// canonical before and after objects; either may be nil).
func maskValues(b, a map[string]any) {
	for _, f := range secretFields {
		bm, am := valuesOf(b, f), valuesOf(a, f)
		for k, v := range bm {
			w, ok := am[k]
			switch {
			case !ok:
				bm[k] = Masked
			case equalValue(v, w):
				bm[k], am[k] = Masked, Masked
			default:
				bm[k], am[k] = MaskedBefore, MaskedAfter
			}
		}
		for k := range am {
			if _, ok := bm[k]; !ok {
				am[k] = Masked
			}
		}
	}
}

// valuesOf returns obj[field] when it is an object. Anything else under field
// (a string, a list) is replaced with Masked: it would be an invalid Secret,
// but its content might still be secret.
func valuesOf(obj map[string]any, field string) map[string]any {
	v, ok := obj[field]
	if !ok || v == nil {
		return nil
	}
	if m, ok := v.(map[string]any); ok {
		return m
	}
	obj[field] = Masked
	return nil
}

// maskLastApplied masks the Secret values kept in the last-applied annotation
// of b and a, comparing the two sides like maskValues does.
func maskLastApplied(b, a map[string]any) {
	bo, bset := parseLastApplied(b)
	ao, aset := parseLastApplied(a)
	if !bset && !aset {
		return
	}
	maskValues(bo, ao)
	setLastApplied(b, bo, bset)
	setLastApplied(a, ao, aset)
}

// parseLastApplied returns the object in obj's last-applied annotation (nil
// when it is not a JSON object) and whether obj has that annotation.
func parseLastApplied(obj map[string]any) (map[string]any, bool) {
	ann := annotations(obj)
	v, ok := ann[lastAppliedAnnotation]
	if !ok {
		return nil, false
	}
	s, _ := v.(string)
	var parsed any
	if err := decodeJSON([]byte(s), &parsed); err != nil {
		return nil, true
	}
	m, _ := canon(parsed).(map[string]any)
	return m, true
}

func setLastApplied(obj, masked map[string]any, set bool) {
	if !set {
		return
	}
	ann := annotations(obj)
	if masked == nil {
		ann[lastAppliedAnnotation] = Masked
		return
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(masked); err != nil {
		ann[lastAppliedAnnotation] = Masked
		return
	}
	s := strings.TrimSuffix(buf.String(), "\n")
	if orig, _ := ann[lastAppliedAnnotation].(string); strings.HasSuffix(orig, "\n") {
		s += "\n" // kubectl writes it with one
	}
	ann[lastAppliedAnnotation] = s
}

func annotations(obj map[string]any) map[string]any {
	md, _ := obj["metadata"].(map[string]any)
	ann, _ := md["annotations"].(map[string]any)
	return ann
}

// decodeJSON decodes exactly one JSON value, keeping numbers exact.
func decodeJSON(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if dec.More() {
		return errors.New("data after the JSON value")
	}
	return nil
}
