package plan

import (
	"encoding/json"
	"math"
	"strconv"
	"unicode/utf8"
)

// serverMetadata are the metadata fields the API server sets and the user
// does not own. A live read and a dry-run of the same object can disagree on
// them, so they are noise in a diff:
var serverMetadata = []string{
	"managedFields",              // server-side apply bookkeeping; a dry-run adds our manager with a new time
	"resourceVersion",            // etcd revision; also kept apart in Change.LiveResourceVersion
	"generation",                 // bumped by the server on every spec change, dry-run included
	"uid",                        // minted by the server; a create dry-run mints a throwaway one
	"creationTimestamp",          // set by the server; a create dry-run says "now"
	"selfLink",                   // legacy, set by old servers only
	"deletionTimestamp",          // set by the server when a graceful delete starts
	"deletionGracePeriodSeconds", // set with deletionTimestamp
}

// controllerAnnotations are annotations controllers write on objects users
// apply. User-visible annotations, kubectl.kubernetes.io/last-applied-
// configuration included, are kept (MaskSecret masks that one in Secrets).
var controllerAnnotations = []string{
	"deployment.kubernetes.io/revision", // the Deployment controller's rollout counter
}

// Normalize returns a deep copy of obj without what the API server and
// controllers set, so that "nothing changed" means "no diff". It removes:
//   - the metadata fields in serverMetadata (managedFields, resourceVersion,
//     generation, uid, creationTimestamp, selfLink, deletionTimestamp,
//     deletionGracePeriodSeconds);
//   - status, which controllers write and apply never changes;
//   - the annotations in controllerAnnotations;
//   - metadata.annotations and metadata.labels when they are empty or null
//     (also when emptied by the rules above): {} and absent mean the same.
//
// Everything the user owns stays, labels such as the ApplySet's
// applyset.kubernetes.io/part-of included: a label only one side has is a
// real change.
//
// Values are put in one canonical form, so that equal objects are deeply
// equal however they were decoded: every number becomes an int64 when it is
// integral and fits, else a float64 (3 and 3.0 are the same number); nil
// slices and maps become nil; other Go types (int32, []string,
// map[string]string, json.Number, structs) become what JSON decoding would
// make of them. Normalize(nil) is nil.
func Normalize(obj map[string]any) map[string]any {
	if obj == nil {
		return nil
	}
	out := canonMap(obj)
	delete(out, "status")
	md, ok := out["metadata"].(map[string]any)
	if !ok {
		return out
	}
	for _, f := range serverMetadata {
		delete(md, f)
	}
	if ann, ok := md["annotations"].(map[string]any); ok {
		for _, k := range controllerAnnotations {
			delete(ann, k)
		}
	}
	for _, f := range []string{"annotations", "labels"} {
		if v, ok := md[f]; ok && (v == nil || isEmptyMap(v)) {
			delete(md, f)
		}
	}
	return out
}

func isEmptyMap(v any) bool {
	m, ok := v.(map[string]any)
	return ok && len(m) == 0
}

func canonMap(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[validUTF8(k)] = canon(v)
	}
	return out
}

// canon returns a deep copy of v in canonical form (see Normalize).
func canon(v any) any {
	switch v := v.(type) {
	case nil:
		return nil
	case string:
		return validUTF8(v)
	case bool:
		return v
	case map[string]any:
		if v == nil {
			return nil
		}
		return canonMap(v)
	case []any:
		if v == nil {
			return nil
		}
		out := make([]any, len(v))
		for i, e := range v {
			out[i] = canon(e)
		}
		return out
	case int64:
		return v
	case int:
		return int64(v)
	case int32:
		return int64(v)
	case int16:
		return int64(v)
	case int8:
		return int64(v)
	case uint8:
		return int64(v)
	case uint16:
		return int64(v)
	case uint32:
		return int64(v)
	case uint:
		return canonUint(uint64(v))
	case uint64:
		return canonUint(v)
	case float64:
		return canonFloat(v)
	case float32:
		return canonFloat(float64(v))
	case json.Number:
		if i, err := v.Int64(); err == nil {
			return i
		}
		if f, err := v.Float64(); err == nil {
			return canonFloat(f)
		}
		return string(v)
	}
	// Any other type: what its JSON form decodes to.
	b, err := json.Marshal(v)
	if err != nil {
		return "<unsupported value: " + err.Error() + ">"
	}
	var out any
	if err := decodeJSON(b, &out); err != nil {
		return "<unsupported value: " + err.Error() + ">"
	}
	return canon(out)
}

func canonUint(u uint64) any {
	if u <= math.MaxInt64 {
		return int64(u)
	}
	return canonFloat(float64(u))
}

func canonFloat(f float64) any {
	switch {
	case math.IsNaN(f) || math.IsInf(f, 0):
		// JSON has no such numbers; keep them printable.
		return strconv.FormatFloat(f, 'g', -1, 64)
	case f == math.Trunc(f) && f >= -(1<<63) && f < 1<<63:
		return int64(f)
	}
	return f
}

// validUTF8 replaces each invalid byte with U+FFFD, as encoding/json does
// when it writes the string, so that two strings are equal exactly when
// their JSON and YAML forms are.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	b := make([]byte, 0, len(s)+8)
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && n == 1 {
			b = utf8.AppendRune(b, utf8.RuneError)
		} else {
			b = append(b, s[i:i+n]...)
		}
		i += n
	}
	return string(b)
}
