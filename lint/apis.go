package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kubeplan/kubeplan/lint/schemas"
	"github.com/kubeplan/kubeplan/manifest"
)

// apiVerdict says how an object's apiVersion/kind is known.
type apiVerdict int

const (
	apiBuiltin  apiVerdict = iota // served by Kubernetes: validate with the built-in schema
	apiCustom                     // not a Kubernetes API: look for a CRD
	apiRejected                   // a finding was made; do not validate further
)

// checkAPI decides whether the kube version serves o's apiVersion/kind,
// reporting removed, deprecated and unknown APIs with what to use instead.
func (l *linter) checkAPI(o *manifest.Object) (apiVerdict, []Finding) {
	g, v, k := o.Group(), o.Version(), o.Kind
	kv := l.kubeVersion
	lc, hasLC := l.index.Lifecycle(g, v, k)
	if _, ok := l.index.Served(kv, g, v, k); ok {
		if hasLC && lc.Deprecated != "" && versionLE(lc.Deprecated, kv) {
			msg := fmt.Sprintf("%s %s is deprecated since Kubernetes %s", o.APIVersion, k, lc.Deprecated)
			if lc.Removed != "" {
				msg += fmt.Sprintf(" and is removed in %s", lc.Removed)
			}
			if alt := l.replacement(lc, kv); alt != "" {
				msg += "; use " + alt
			}
			return apiBuiltin, []Finding{objectFinding(o, []string{"apiVersion"}, Warning, "deprecated-api", msg)}
		}
		return apiBuiltin, nil
	}
	if hasLC && lc.Removed != "" && versionLE(lc.Removed, kv) {
		msg := fmt.Sprintf("%s %s was removed in Kubernetes %s", o.APIVersion, k, lc.Removed)
		if alt := l.replacement(lc, kv); alt != "" {
			msg += "; use " + alt
		}
		return apiRejected, []Finding{objectFinding(o, []string{"apiVersion"}, Error, "removed-api", msg)}
	}
	if !l.index.KnownGroup(g) {
		return apiCustom, nil
	}
	// A Kubernetes group, but not this version or kind.
	msg := fmt.Sprintf("Kubernetes %s does not serve %s %s", kv, o.APIVersion, k)
	if in := l.index.ServedIn(g, v, k); len(in) > 0 {
		msg += fmt.Sprintf(" (it is served by %s)", strings.Join(in, ", "))
	}
	if alts := l.index.ByKind(kv, k); len(alts) > 0 {
		msg += fmt.Sprintf("; %s is served as %s", k, gvString(alts[0].Group, alts[0].Version))
	} else if hasLC && lc.Introduced != "" && !versionLE(lc.Introduced, kv) {
		msg += fmt.Sprintf("; it is introduced in %s", lc.Introduced)
	} else if s := l.closeKind(k); s != "" {
		msg += fmt.Sprintf("; did you mean kind %s?", s)
	}
	return apiRejected, []Finding{objectFinding(o, []string{"apiVersion"}, Error, "unknown-api", msg)}
}

// replacement names what to use instead of a lifecycle-ended API.
func (l *linter) replacement(lc schemas.Lifecycle, kv string) string {
	if lc.Replacement != "" {
		return lc.Replacement
	}
	for _, r := range l.index.ByKind(kv, lc.Kind) {
		return gvString(r.Group, r.Version) + " " + r.Kind
	}
	return ""
}

func (l *linter) closeKind(k string) string {
	return suggest(k, l.index.Kinds(l.kubeVersion))
}

func gvString(g, v string) string {
	if g == "" {
		return v
	}
	return g + "/" + v
}

// versionLE reports a <= b for "1.16"-style versions.
func versionLE(a, b string) bool {
	am, an := splitMinor(a)
	bm, bn := splitMinor(b)
	if am != bm {
		return am < bm
	}
	return an <= bn
}

func splitMinor(v string) (int, int) {
	parts := strings.SplitN(strings.TrimPrefix(v, "v"), ".", 3)
	maj, _ := strconv.Atoi(parts[0])
	mi := 0
	if len(parts) > 1 {
		mi, _ = strconv.Atoi(parts[1])
	}
	return maj, mi
}
