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
		d.Live, d.Want = "(unset)", "(unset)"
		path, perr := parseFieldPath(cause.Field)
		if perr == nil {
			if live != nil {
				if v, ok := lookupPath(live.Object, path); ok {
					d.Live = show(v)
				}
			}
			if v, ok := lookupPath(want.Object, path); ok {
				d.Want = show(v)
			}
		}
		if want.GetKind() == "Secret" && (perr != nil || topField(path) == "data" || topField(path) == "stringData" || isRollKeyField(cause.Field)) {
			d.Live, d.Want = "***", "***"
		}
		out = append(out, d)
	}
	return out
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
