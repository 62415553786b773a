package plan

import (
	"encoding/base64"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/kubeplan/kubeplan/manifest"
)

// HiddenLookup stands in, in every view and in saved plans, for the value
// of a field a chart derived from a Secret it read with lookup
// (manifest.KeptLookedUp).
const HiddenLookup = "(read from the cluster by lookup, hidden)"

// Kept is a field of a chart's object whose rendered value is not what the
// plan shows, or not what apply writes (see manifest.Object.Kept).
type Kept struct {
	// Field names the field: "data.password", "spec.containers[0].env[1].value",
	// `data["tls.crt"]`.
	Field string `json:"field"`
	// Path is the field's path in the object (list items by index).
	Path []string `json:"path"`
	// Reason is manifest.KeptGenerated or manifest.KeptLookedUp.
	Reason string `json:"reason"`
	// Live is true when the object exists with this field: plan and
	// apply keep its live value. A KeptGenerated field that is not live
	// is written as rendered and not listed; a KeptLookedUp one is listed,
	// written as rendered by apply (which renders with the Secrets' data)
	// and shown as HiddenLookup.
	Live bool `json:"live,omitempty"`
}

// keep gives each target the fields its chart marked Kept: when the object
// has the field live, its live value replaces the rendered one, so a chart
// that generates a password neither rotates it nor shows a perpetual
// change. A field derived from a looked-up Secret is kept live too, in
// plan (which never sees the Secret's data, only placeholders) and in
// apply alike, so that apply does what the plan said; it is written as
// rendered only where it is not live yet (a created object, a new field).
// A looked-up value in an object's identity (name, namespace, kind) is an
// error: names are printed everywhere.
func (p *planner) keep(targets []*target, live map[*target]*unstructured.Unstructured) error {
	var errs Errors
	for _, t := range targets {
		if t.src == nil || len(t.src.Kept) == 0 {
			continue
		}
		var lo map[string]any
		if l := live[t]; l != nil {
			lo = l.Object
		}
		for _, k := range t.src.Kept {
			if len(k.Path) == 0 {
				continue
			}
			lookedUp := k.Reason != manifest.KeptGenerated // an unknown reason is hidden too
			if identityField(k.Path) {
				if lookedUp {
					errs = append(errs, &ObjectError{Ref: t.ref, Source: sourceOf(t.src),
						Err: fmt.Errorf("%s is derived from a Secret the chart read with lookup; names are printed in every plan: never put a Secret's value in an object's name", fieldName(t.obj.Object, k.Path))})
				}
				continue // a generated name makes a new object each time, as in helm
			}
			kp := Kept{Field: fieldName(t.obj.Object, k.Path), Path: slices.Clone(k.Path), Reason: k.Reason}
			if lookedUp {
				kp.Reason = manifest.KeptLookedUp
			}
			v, ok := liveValue(lo, k.Path)
			if ok && setPath(t.obj.Object, k.Path, runtime.DeepCopyJSONValue(v)) {
				kp.Live = true
			}
			if kp.Live || lookedUp {
				t.kept = append(t.kept, kp)
			}
		}
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// liveValue is the value at path in the live object; a Secret's
// stringData, which the server keeps only as data, is read from data
// (decoded: a value that is not text is not kept).
func liveValue(live map[string]any, path []string) (any, bool) {
	if v, ok := getPath(live, path); ok {
		return v, true
	}
	if !isSecret(live) || len(path) != 2 || path[0] != "stringData" {
		return nil, false
	}
	v, ok := getPath(live, []string{"data", path[1]})
	s, _ := v.(string)
	if !ok {
		return nil, false
	}
	b, err := base64.StdEncoding.DecodeString(s)
	if err != nil || !utf8.Valid(b) {
		return nil, false
	}
	return string(b), true
}

// identityField reports a path into what names an object.
func identityField(path []string) bool {
	switch path[0] {
	case "apiVersion", "kind":
		return true
	case "metadata":
		return len(path) > 1 && (path[1] == "name" || path[1] == "namespace" || path[1] == "generateName")
	}
	return false
}

// hiddenKept returns obj, or a copy of it with every looked-up field of
// kept replaced by HiddenLookup (suffixed by note when given).
func hiddenKept(obj map[string]any, kept []Kept, note func(k Kept) string) map[string]any {
	if obj == nil || !hasLookedUp(kept) {
		return obj
	}
	out := runtime.DeepCopyJSON(obj)
	for _, k := range kept {
		if k.Reason != manifest.KeptLookedUp {
			continue
		}
		if _, ok := getPath(out, k.Path); ok {
			setPath(out, k.Path, HiddenLookup+note(k))
		}
	}
	return out
}

func hasLookedUp(kept []Kept) bool {
	for _, k := range kept {
		if k.Reason == manifest.KeptLookedUp {
			return true
		}
	}
	return false
}

// diffKept is Diff with the looked-up fields of kept hidden on both
// sides; a field whose value differs between them reads
// "HiddenLookup (before)" and "(after)", so the change still shows.
func diffKept(live, want map[string]any, kept []Kept) string {
	if !hasLookedUp(kept) {
		return Diff(live, want)
	}
	changed := map[string]bool{}
	for _, k := range kept {
		a, aok := getPath(live, k.Path)
		b, bok := getPath(want, k.Path)
		if aok && bok && !equalValue(canon(a), canon(b)) {
			changed[k.Field] = true
		}
	}
	note := func(side string) func(Kept) string {
		return func(k Kept) string {
			if changed[k.Field] {
				return " (" + side + ")"
			}
			return ""
		}
	}
	return Diff(hiddenKept(live, kept, note("before")), hiddenKept(want, kept, note("after")))
}

// hideDrift hides the values of drifted fields that are looked up: by
// path, and by value (a drift entry quoting a looked-up value elsewhere).
func hideDrift(ds []Drift, kept []Kept, objs ...map[string]any) {
	if !hasLookedUp(kept) {
		return
	}
	var values []string
	fields := map[string]bool{}
	for _, k := range kept {
		if k.Reason != manifest.KeptLookedUp {
			continue
		}
		fields[k.Field] = true
		for _, o := range objs {
			if v, ok := getPath(o, k.Path); ok {
				values = append(values, leafStrings(v)...)
			}
		}
	}
	// A drifted value holding a looked-up one, or part of one.
	holds := func(s string) bool {
		if len(s) < 4 || s == "(unset)" {
			return false
		}
		for _, v := range values {
			if strings.Contains(s, v) || strings.Contains(v, s) {
				return true
			}
		}
		return false
	}
	for i := range ds {
		d := &ds[i]
		if fields[d.Field] || holds(d.Live) || holds(d.Want) {
			d.Live, d.Want = HiddenLookup, HiddenLookup
		}
	}
}

// hideKeptIn returns err, or, when its message quotes a looked-up value
// of t (the server's "Invalid value: ..."), an error saying the same with
// the value hidden.
func hideKeptIn(err error, t *target) error {
	msg := err.Error()
	hidden := msg
	for _, k := range t.kept {
		if k.Reason != manifest.KeptLookedUp {
			continue
		}
		if v, ok := getPath(t.obj.Object, k.Path); ok {
			for _, s := range leafStrings(v) {
				hidden = strings.ReplaceAll(hidden, s, HiddenLookup)
			}
		}
	}
	if hidden == msg {
		return err
	}
	return errors.New(hidden)
}

// leafStrings are the values in v, as text, that are long enough to be
// told apart (4 bytes or more): the strings and numbers of a field or of
// everything below it.
func leafStrings(v any) []string {
	var out []string
	var walk func(any)
	walk = func(v any) {
		switch c := v.(type) {
		case map[string]any:
			for _, x := range c {
				walk(x)
			}
		case []any:
			for _, x := range c {
				walk(x)
			}
		case nil, bool:
		default:
			if s := fmt.Sprint(c); len(s) >= 4 {
				out = append(out, s)
			}
		}
	}
	walk(v)
	return out
}

// withheld is the object a plan made without the Secrets' data keeps for
// apply: its looked-up fields are HiddenLookup (apply of a saved plan
// reads them live again, see FillWithheld).
func withheld(obj map[string]any, kept []Kept) map[string]any {
	return hiddenKept(obj, kept, func(Kept) string { return "" })
}

// getPath returns the value at path in v (map keys, list indexes).
func getPath(v any, path []string) (any, bool) {
	for _, s := range path {
		switch c := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = c[s]; !ok {
				return nil, false
			}
		case []any:
			i, ok := index(s, len(c))
			if !ok {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// setPath sets the value at path in obj when its parent exists; it
// reports whether it did.
func setPath(obj map[string]any, path []string, val any) bool {
	parent, ok := getPath(obj, path[:len(path)-1])
	if !ok {
		return false
	}
	last := path[len(path)-1]
	switch c := parent.(type) {
	case map[string]any:
		c[last] = val
		return true
	case []any:
		if i, ok := index(last, len(c)); ok {
			c[i] = val
			return true
		}
	}
	return false
}

func index(s string, n int) (int, bool) {
	i := 0
	if s == "" || len(s) > 9 {
		return 0, false
	}
	for _, r := range s {
		if r < '0' || r > '9' {
			return 0, false
		}
		i = i*10 + int(r-'0')
	}
	return i, i < n
}

// fieldName writes path as a field: "spec.containers[0].image", with a
// key that is not a plain word quoted (`data["tls.crt"]`).
func fieldName(obj map[string]any, path []string) string {
	var b strings.Builder
	var v any = obj
	for _, s := range path {
		if l, ok := v.([]any); ok {
			b.WriteString("[" + s + "]")
			if i, ok := index(s, len(l)); ok {
				v = l[i]
			} else {
				v = nil
			}
			continue
		}
		if plainKey(s) {
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(s)
		} else {
			fmt.Fprintf(&b, "[%q]", s)
		}
		if m, ok := v.(map[string]any); ok {
			v = m[s]
		} else {
			v = nil
		}
	}
	return b.String()
}

func plainKey(s string) bool {
	if s == "" {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '_' || r == '-' || r == '/') {
			return false
		}
	}
	return true
}
