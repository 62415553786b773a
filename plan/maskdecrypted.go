package plan

import "github.com/kubeplan/kubeplan/internal/sops"

// hideDecryptedPair returns before and after (one may be nil) with every
// value decrypted from SOPS hidden in every string and key, whatever the
// object's kind, before they are rendered: a long value YAML folds over
// two lines is hidden too. A string that differs between the two sides
// but would read the same once hidden (a rotated secret) is marked
// " (before)" and " (after)", so the change still shows and Equal still
// sees it. It returns its arguments when neither holds a decrypted value,
// else copies; it never changes its arguments.
func hideDecryptedPair(before, after map[string]any) (b, a map[string]any) {
	if !sops.Any() || (!sops.Holds(before) && !sops.Holds(after)) {
		return before, after
	}
	var x, y any
	switch {
	case before == nil:
		y = hideAll(after)
	case after == nil:
		x = hideAll(before)
	default:
		x, y = hidePair(before, after)
	}
	b, _ = x.(map[string]any)
	a, _ = y.(map[string]any)
	return b, a
}

// hidePair hides decrypted values in b and a, walking them side by side.
func hidePair(b, a any) (any, any) {
	switch bv := b.(type) {
	case map[string]any:
		av, ok := a.(map[string]any)
		if !ok {
			return hideAll(b), hideAll(a)
		}
		ob, oa := make(map[string]any, len(bv)), make(map[string]any, len(av))
		for k, v := range bv {
			if w, ok := av[k]; ok {
				ob[sops.Scrub(k)], oa[sops.Scrub(k)] = hidePair(v, w)
			} else {
				ob[sops.Scrub(k)] = hideAll(v)
			}
		}
		for k, w := range av {
			if _, ok := bv[k]; !ok {
				oa[sops.Scrub(k)] = hideAll(w)
			}
		}
		return ob, oa
	case []any:
		av, ok := a.([]any)
		if !ok || len(av) != len(bv) {
			return hideAll(b), hideAll(a)
		}
		ob, oa := make([]any, len(bv)), make([]any, len(av))
		for i := range bv {
			ob[i], oa[i] = hidePair(bv[i], av[i])
		}
		return ob, oa
	case string:
		as, ok := a.(string)
		if !ok {
			return sops.Scrub(bv), hideAll(a)
		}
		sb, sa := sops.Scrub(bv), sops.Scrub(as)
		if bv != as && sb == sa {
			return sb + " (before)", sa + " (after)"
		}
		return sb, sa
	}
	return b, hideAll(a)
}

// hideAll is a copy of v with decrypted values hidden in every string and
// key.
func hideAll(v any) any {
	switch v := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(v))
		for k, c := range v {
			out[sops.Scrub(k)] = hideAll(c)
		}
		return out
	case []any:
		out := make([]any, len(v))
		for i, c := range v {
			out[i] = hideAll(c)
		}
		return out
	case string:
		return sops.Scrub(v)
	}
	return v
}
