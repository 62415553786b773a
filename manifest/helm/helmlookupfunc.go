package helm

import (
	"context"
	"encoding/base64"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"sync/atomic"
)

// lastApplied is the annotation kubectl apply stores an object's whole
// configuration in: for a Secret, its data too.
const lastApplied = "kubectl.kubernetes.io/last-applied-configuration"

// withheldLen is how many bytes a withheld Secret value has, whatever the
// real value's length (which is not shown either).
const withheldLen = 24

// withheldByte are the bytes the placeholders of a withheld Secret value
// repeat, one per placeholder (1 and 2). The two differ at every position,
// in either case, as text and in base64 ("S0tL..." and "V1dX..."), so a
// field made from them by b64dec, upper, substr, toJson... differs between
// the renders that use them.
var withheldByte = [3]byte{0, 'K', 'W'}

// withheldText is placeholder n (1 or 2) as the decoded value.
func withheldText(n int) string {
	return strings.Repeat(string(withheldByte[n]), withheldLen)
}

// lookupCache is what Lookup returned for each call during one chart's
// renders: the cluster is read once per object whatever the renders.
type lookupCache struct {
	mu  sync.Mutex
	got map[[4]string]lookupAnswer
}

type lookupAnswer struct {
	obj map[string]any
	err error
}

// lookupSource is the lookup function of one render: it reads through the
// cache with ctx, and hands templates the data of the Secrets it returns
// as is (withhold 0) or replaced by placeholder 1 or 2.
type lookupSource struct {
	ctx      context.Context
	lk       Lookup
	cache    *lookupCache
	withhold int
	// sawSecret is set when a Secret with data came back: the chart may
	// have derived fields from it.
	sawSecret atomic.Bool
}

// fn is the template function lookup.
func (l *lookupSource) fn(apiVersion, kind, namespace, name string) (map[string]any, error) {
	if l.lk == nil {
		return map[string]any{}, nil
	}
	key := [4]string{apiVersion, kind, namespace, name}
	l.cache.mu.Lock()
	a, ok := l.cache.got[key]
	l.cache.mu.Unlock()
	if !ok {
		obj, err := l.lk.Lookup(l.ctx, apiVersion, kind, namespace, name)
		if err != nil {
			err = fmt.Errorf("lookup %s %s %s: %w", apiVersion, kind, strings.TrimPrefix(namespace+"/"+name, "/"), err)
		}
		a = lookupAnswer{obj, err}
		l.cache.mu.Lock()
		l.cache.got[key] = a
		l.cache.mu.Unlock()
	}
	if a.err != nil {
		return map[string]any{}, a.err
	}
	// a copy: a template may change what it got (set, unset)
	obj, _ := deepCopyJSON(a.obj).(map[string]any)
	if obj == nil {
		obj = map[string]any{}
	}
	secretAsked := apiVersion == "v1" && kind == "Secret"
	if l.withholdIn(obj, secretAsked) {
		l.sawSecret.Store(true)
	}
	if items, ok := obj["items"].([]any); ok {
		for _, it := range items {
			if m, ok := it.(map[string]any); ok && l.withholdIn(m, secretAsked) {
				l.sawSecret.Store(true)
			}
		}
	}
	return obj, nil
}

// withholdIn replaces the values of obj's data and stringData and its
// last-applied configuration with placeholder l.withhold (when not 0) if
// obj is a v1 Secret (or was asked for as one); it reports whether obj is
// a Secret holding any of them.
func (l *lookupSource) withholdIn(obj map[string]any, secretAsked bool) bool {
	av, _ := obj["apiVersion"].(string)
	k, _ := obj["kind"].(string)
	if !(av == "v1" && k == "Secret") && !(secretAsked && av == "" && k == "") {
		return false
	}
	held := false
	for _, field := range []string{"data", "stringData"} {
		v, ok := obj[field]
		if !ok || v == nil {
			continue
		}
		m, isMap := v.(map[string]any)
		if !isMap {
			// not a Secret's data as the API server has it: withheld whole
			held = true
			if l.withhold != 0 {
				obj[field] = withheldText(l.withhold)
			}
			continue
		}
		for key := range m {
			held = true
			if l.withhold == 0 {
				continue
			}
			if field == "data" {
				m[key] = base64.StdEncoding.EncodeToString([]byte(withheldText(l.withhold)))
			} else {
				m[key] = withheldText(l.withhold)
			}
		}
	}
	meta, _ := obj["metadata"].(map[string]any)
	ann, _ := meta["annotations"].(map[string]any)
	if _, ok := ann[lastApplied]; ok {
		held = true
		if l.withhold != 0 {
			ann[lastApplied] = withheldText(l.withhold)
		}
	}
	return held
}

// deepCopyJSON copies a JSON-like value (maps, lists, scalars). A map
// with string keys or a list of another Go type (map[string]string,
// []map[string]any) becomes map[string]any or []any, and bytes their
// base64, as in JSON: whatever a Lookup returns, a Secret's data is
// found and withheld.
func deepCopyJSON(v any) any {
	switch t := v.(type) {
	case nil, string, bool, int64, float64, int:
		return v
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = deepCopyJSON(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = deepCopyJSON(e)
		}
		return out
	case []byte:
		return base64.StdEncoding.EncodeToString(t)
	}
	r := reflect.ValueOf(v)
	switch r.Kind() {
	case reflect.Map:
		if r.Type().Key().Kind() != reflect.String {
			return v
		}
		out := make(map[string]any, r.Len())
		for it := r.MapRange(); it.Next(); {
			out[it.Key().String()] = deepCopyJSON(it.Value().Interface())
		}
		return out
	case reflect.Slice, reflect.Array:
		if r.Type().Elem().Kind() == reflect.Uint8 {
			b := make([]byte, r.Len())
			reflect.Copy(reflect.ValueOf(b), r)
			return base64.StdEncoding.EncodeToString(b)
		}
		out := make([]any, r.Len())
		for i := range out {
			out[i] = deepCopyJSON(r.Index(i).Interface())
		}
		return out
	case reflect.Pointer, reflect.Interface:
		if r.IsNil() {
			return nil
		}
		return deepCopyJSON(r.Elem().Interface())
	}
	return v
}
