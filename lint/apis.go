package lint

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/kubeplan/kubeplan/internal/kubeapi"
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
	// A Kubernetes group, but not this version or kind. When the version
	// is served and the kind is served by none, the kind is what to fix
	// (a typo); else the apiVersion.
	alts := l.index.ByKind(kv, k)
	at := "apiVersion"
	if len(alts) == 0 && l.index.ServesGroupVersion(kv, g, v) {
		at = "kind"
	}
	msg := fmt.Sprintf("Kubernetes %s does not serve %s %s", kv, o.APIVersion, k)
	if in := l.index.ServedIn(g, v, k); len(in) > 0 {
		msg += fmt.Sprintf(" (it is served by %s)", strings.Join(in, ", "))
	}
	if len(alts) > 0 {
		msg += fmt.Sprintf("; %s is served as %s", k, gvString(alts[0].Group, alts[0].Version))
	} else if hasLC && lc.Introduced != "" && !versionLE(lc.Introduced, kv) {
		msg += fmt.Sprintf("; it is introduced in %s", lc.Introduced)
	} else if s := l.closeKind(k); s != "" {
		msg += fmt.Sprintf("; did you mean kind %s?", s)
	}
	return apiRejected, []Finding{objectFinding(o, []string{at}, Error, "unknown-api", msg)}
}

// replacement names what to use instead of a lifecycle-ended API, served
// by kv: the recorded replacement, followed while it is itself removed, or
// else the kind as kv serves it, in the same group first. A List kind is
// never named. A replacement that is not an API (Pod Security Admission
// for PodSecurityPolicy) is named as it is.
func (l *linter) replacement(lc kubeapi.Lifecycle, kv string) string {
	seen := map[string]bool{}
	for r := lc.Replacement; r != "" && !seen[r]; {
		seen[r] = true
		g, v, k, ok := parseReplacement(r)
		if !ok {
			return r
		}
		if _, served := l.index.Served(kv, g, v, k); served && !strings.HasSuffix(k, "List") {
			return r
		}
		next, has := l.index.Lifecycle(g, v, k)
		if !has {
			break
		}
		r = next.Replacement
	}
	var best *kubeapi.APIResource
	for _, r := range l.index.ByKind(kv, lc.Kind) {
		if best == nil || (r.Group == lc.Group && best.Group != lc.Group) {
			best = &r
		}
	}
	if best == nil {
		return ""
	}
	return gvString(best.Group, best.Version) + " " + best.Kind
}

// parseReplacement reads "group/version Kind" (core: "v1 Kind"); ok is
// false for anything else.
func parseReplacement(r string) (group, version, kind string, ok bool) {
	gv, kind, found := strings.Cut(r, " ")
	if !found || kind == "" || strings.ContainsAny(kind, " ()") {
		return "", "", "", false
	}
	group, version, found = strings.Cut(gv, "/")
	if !found {
		group, version = "", gv
	}
	if len(version) < 2 || version[0] != 'v' || version[1] < '0' || version[1] > '9' {
		return "", "", "", false
	}
	return group, version, kind, true
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
