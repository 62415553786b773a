package plan

import (
	"errors"
	"fmt"
	"regexp"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

var conflictManagerRE = regexp.MustCompile(`conflict with "([^"]+)"`)

// drift reads the field conflicts of a non-forced dry-run: each is a field
// that another manager set to a value that differs from git's.
func drift(err error, live, want *unstructured.Unstructured) []Drift {
	var se apierrors.APIStatus
	if !errors.As(err, &se) || se.Status().Details == nil {
		return nil
	}
	var out []Drift
	for _, cause := range se.Status().Details.Causes {
		if cause.Type != metav1.CauseTypeFieldManagerConflict {
			continue
		}
		d := Drift{Field: strings.TrimPrefix(cause.Field, ".")}
		if m := conflictManagerRE.FindStringSubmatch(cause.Message); m != nil {
			d.Manager = m[1]
		}
		path := fieldPathSegments(cause.Field)
		d.Live, d.Want = "(unset)", "(unset)"
		if live != nil {
			if v, ok := lookupPath(live.Object, path); ok {
				d.Live = show(v)
			}
		}
		if v, ok := lookupPath(want.Object, path); ok {
			d.Want = show(v)
		}
		if want.GetKind() == "Secret" && len(path) > 0 && (path[0] == "data" || path[0] == "stringData") {
			d.Live, d.Want = "***", "***"
		}
		out = append(out, d)
	}
	return out
}

// fieldPathSegments splits ".spec.replicas" into its keys. Paths with list
// selectors (".spec.containers[name=\"web\"].image") are kept as one
// opaque segment where they can't be followed.
func fieldPathSegments(p string) []string {
	var out []string
	for _, s := range strings.Split(strings.TrimPrefix(p, "."), ".") {
		if s != "" {
			out = append(out, s)
		}
	}
	return out
}

func lookupPath(obj map[string]any, path []string) (any, bool) {
	var cur any = obj
	for _, p := range path {
		m, ok := cur.(map[string]any)
		if !ok {
			return nil, false
		}
		if cur, ok = m[p]; !ok {
			return nil, false
		}
	}
	return cur, true
}

func show(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case map[string]any, []any:
		return "(structured value)"
	}
	return fmt.Sprint(v)
}
