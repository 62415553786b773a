package plan

import (
	"github.com/kubeplan/kubeplan/internal/udiff"
	"sigs.k8s.io/yaml"
)

// Diff returns the unified diff of the live object against the planned one
// (the server-side dry-run result), both normalized (see Normalize), with
// Secret values masked (see MaskSecret), rendered as YAML with sorted keys,
// under the headers "--- live" and "+++ planned". live is nil for a create
// (the header is "--- /dev/null" and every line is added) and want is nil for
// a prune ("+++ /dev/null", every line removed). It returns "" when nothing
// changes, exactly when Equal(live, want).
func Diff(live, want map[string]any) string {
	if live == nil && want == nil {
		return ""
	}
	l, w := normalizeMasked(live, want)
	lt, wt := renderYAML(l), renderYAML(w)
	if lt == wt {
		return ""
	}
	from, to := "live", "planned"
	if live == nil {
		from = "/dev/null"
	}
	if want == nil {
		to = "/dev/null"
	}
	return udiff.Unified(from, to, lt, wt)
}

// Equal reports whether applying want over live changes nothing: whether
// their normalized, masked forms are equal. It agrees with Diff(live, want)
// == "" without rendering anything.
func Equal(live, want map[string]any) bool {
	if (live == nil) != (want == nil) {
		return false
	}
	l, w := normalizeMasked(live, want)
	return equalValue(l, w)
}

func normalizeMasked(live, want map[string]any) (l, w map[string]any) {
	return MaskSecret(Normalize(live), Normalize(want))
}

// render writes a normalized object as YAML. sigs.k8s.io/yaml goes through
// JSON, so map keys come out sorted, and integral numbers, being int64 after
// Normalize, print without a fraction.
func renderYAML(obj map[string]any) string {
	if obj == nil {
		return ""
	}
	b, err := yaml.Marshal(obj)
	if err != nil {
		// Cannot happen: Normalize randLeaves only JSON values.
		return "# cannot render the object: " + err.Error() + "\n"
	}
	return string(b)
}

// equalValue is deep equality of canonical values (see canon).
func equalValue(x, y any) bool {
	switch x := x.(type) {
	case map[string]any:
		y, ok := y.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !equalValue(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := y.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !equalValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case string:
		y, ok := y.(string)
		return ok && x == y
	case int64:
		y, ok := y.(int64)
		return ok && x == y
	case float64:
		y, ok := y.(float64)
		return ok && x == y
	case bool:
		y, ok := y.(bool)
		return ok && x == y
	case nil:
		return y == nil
	}
	return false
}
