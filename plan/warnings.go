package plan

import (
	"context"
	"fmt"
	"slices"
	"strings"
)

// The labels a namespace sets its Pod Security enforce level with
// (k8s.io/pod-security-admission/api).
const (
	podSecurityEnforceLabel        = "pod-security.kubernetes.io/enforce"
	podSecurityEnforceVersionLabel = "pod-security.kubernetes.io/enforce-version"
)

// podSecurityPrefix begins the warning Pod Security admission returns for
// a pod template its namespace's warn level refuses:
// `would violate PodSecurity "restricted:latest": privileged (...)`.
const podSecurityPrefix = `would violate PodSecurity "`

// podSecurityLevels orders the levels: each forbids all that the one
// before it forbids.
var podSecurityLevels = map[string]int{"privileged": 0, "baseline": 1, "restricted": 2}

// podSecurityWarning reads the level and version a Pod Security warning
// names ("restricted", "latest"); ok is false for any other warning.
func podSecurityWarning(w string) (level, version string, ok bool) {
	rest, found := strings.CutPrefix(w, podSecurityPrefix)
	if !found {
		return "", "", false
	}
	lv, _, found := strings.Cut(rest, `"`)
	if !found {
		return "", "", false
	}
	level, version, _ = strings.Cut(lv, ":")
	if _, known := podSecurityLevels[level]; !known {
		return "", "", false
	}
	return level, orLatest(version), true
}

func orLatest(v string) string {
	if v == "" {
		return "latest"
	}
	return v
}

// enforcement is a namespace's Pod Security enforce level and version, and
// where they were read.
type enforcement struct {
	level, version string
	from           string // "the live Namespace", "the Namespace in the set"
}

// refuses reports whether pods that break level at version are refused
// where e is enforced: e's level is at least as strict, at the same
// version. Another version may judge differently, so it is left a warning.
func (e enforcement) refuses(level, version string) bool {
	el, known := podSecurityLevels[e.level]
	return known && el > 0 && el >= podSecurityLevels[level] && e.version == version
}

// refusePodSecurity raises the Pod Security warning of a workload (a
// Deployment, a Job, ... whose dry-run the server accepted) to an error
// when its namespace enforces that level: the server accepts the workload,
// then refuses every pod made from it, so the apply would "succeed" with
// nothing running. A Pod itself is refused by its dry-run already. The
// namespace's labels are those of the Namespace in the set when it has
// one (applied first), else the live ones. errs[i] is set for each
// refused change.
func (p *planner) refusePodSecurity(ctx context.Context, targets []*target, changes []Change, errs []*ObjectError) {
	inSet := map[string]map[string]string{}
	for _, t := range targets {
		if t.ref.Group == "" && t.ref.Kind == "Namespace" {
			inSet[t.ref.Name] = t.obj.GetLabels()
		}
	}
	read := map[string]*enforcement{}
	lookup := func(ns string) *enforcement {
		if e, done := read[ns]; done {
			return e
		}
		var e *enforcement
		if labels, ok := inSet[ns]; ok {
			e = enforcementOf(labels, "the Namespace in the set")
		} else if live, ok := p.opts.Namespaces.Labels(ctx, ns); ok {
			e = enforcementOf(live, "the live Namespace")
		} // unreadable: the warning stays a warning
		read[ns] = e
		return e
	}
	for i, c := range changes {
		if errs[i] != nil || c.Ref.Kind == "Pod" && c.Ref.Group == "" {
			continue
		}
		for _, w := range c.APIWarnings {
			level, version, ok := podSecurityWarning(w)
			if !ok {
				continue
			}
			e := lookup(targets[i].obj.GetNamespace())
			if e == nil || !e.refuses(level, version) {
				continue
			}
			errs[i] = &ObjectError{Ref: c.Ref, Source: c.Source, Err: &PodSecurityError{
				Namespace: targets[i].obj.GetNamespace(), Level: e.level, Version: e.version, From: e.from, Warning: w,
			}}
			break
		}
	}
}

// enforcementOf reads a namespace's enforce level from its labels; nil
// when it enforces nothing.
func enforcementOf(labels map[string]string, from string) *enforcement {
	level := labels[podSecurityEnforceLabel]
	if level == "" || level == "privileged" {
		return nil
	}
	return &enforcement{level: level, version: orLatest(labels[podSecurityEnforceVersionLabel]), from: from}
}

// PodSecurityError says a workload's pods would be refused by the Pod
// Security level its namespace enforces.
type PodSecurityError struct {
	Namespace, Level, Version string
	From                      string // where the namespace's labels were read
	Warning                   string // the API server's warning, as it wrote it
}

func (e *PodSecurityError) Error() string {
	return fmt.Sprintf("namespace %q enforces Pod Security %q (%s=%s on %s): the server accepts the workload but refuses every pod made from it, since its pods %s; make the pod template meet the level, or lower the namespace's enforce level",
		e.Namespace, e.Level+":"+e.Version, podSecurityEnforceLabel, e.Level, e.From, e.Warning)
}

// maskWarnings hides a Secret's values in the warnings of its dry-run: the
// server's own warnings never quote them, but a webhook's may, and a
// warning is printed in every view. The longest values go first, so a
// value inside another is not left half shown. Any other object's
// warnings are returned as they are.
func maskWarnings(obj map[string]any, ws []string) []string {
	values := SecretValues(obj)
	if len(values) == 0 || len(ws) == 0 {
		return ws
	}
	slices.SortFunc(values, func(a, b string) int { return len(b) - len(a) })
	out := make([]string, len(ws))
	for i, w := range ws {
		for _, v := range values {
			w = strings.ReplaceAll(w, v, "***")
		}
		out[i] = w
	}
	return out
}
