package stage

import (
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
)

// The kapp annotations (docs/apply-ordering.md of carvel-dev/kapp); each
// may repeat with a suffix: kapp.k14s.io/change-group.db, ...-rule.1.
const (
	GroupAnnotation = "kapp.k14s.io/change-group"
	RuleAnnotation  = "kapp.k14s.io/change-rule"
)

// The groups kapp gives CRDs and Namespaces without annotations; rules may
// name them.
const (
	CRDsGroup       = "change-groups.kapp.k14s.io/crds"
	NamespacesGroup = "change-groups.kapp.k14s.io/namespaces"
)

// Rule is one kapp change rule: "upsert after upserting apps.big.co/db".
type Rule struct {
	// Action is the change of this object the rule orders: "upsert" or
	// "delete".
	Action string
	// Before is true for "before", false for "after".
	Before bool
	// Target is the change of the group's objects: "upserting" or
	// "deleting".
	Target string
	// Group is the group the rule names, placeholders filled.
	Group string
	// Annotation is the key the rule was read from.
	Annotation string
}

// Orders reports whether the rule orders writes (upsert against
// upserting): the rules that place objects in stages. The others order
// deletes, which prune does.
func (r Rule) Orders() bool { return r.Action == "upsert" && r.Target == "upserting" }

// String is the rule as written.
func (r Rule) String() string {
	order := "after"
	if r.Before {
		order = "before"
	}
	return r.Action + " " + order + " " + r.Target + " " + r.Group
}

// annotationKeys are the keys of ann that are key or key.NAME, sorted.
func annotationKeys(ann map[string]string, key string) []string {
	var out []string
	for k := range ann {
		if k == key || strings.HasPrefix(k, key+".") {
			out = append(out, k)
		}
	}
	sort.Strings(out)
	return out
}

// readKapp fills p's Groups and Rules from o's kapp annotations.
func readKapp(o Object, p *Placement, idx int) []Problem {
	var probs []Problem
	for _, k := range annotationKeys(o.Annotations, GroupAnnotation) {
		name, err := groupName(o, o.Annotations[k])
		if err != nil {
			probs = append(probs, o.problem(idx, ProblemAnnotation, k, fmt.Sprintf("%s: %v", k, err)))
			continue
		}
		p.Groups = appendNew(p.Groups, name)
	}
	for _, k := range annotationKeys(o.Annotations, RuleAnnotation) {
		r, err := parseRule(o, o.Annotations[k])
		if err != nil {
			probs = append(probs, o.problem(idx, ProblemAnnotation, k, fmt.Sprintf("%s: %v", k, err)))
			continue
		}
		r.Annotation = k
		p.Rules = append(p.Rules, r)
	}
	return probs
}

// parseRule reads "(upsert|delete) (after|before) (upserting|deleting)
// GROUP". As kapp does, the four words are separated by single spaces.
func parseRule(o Object, v string) (Rule, error) {
	words := strings.Split(v, " ")
	if len(words) != 4 {
		return Rule{}, fmt.Errorf("change rule %q has %d words, want 4: (upsert|delete) (after|before) (upserting|deleting) GROUP, separated by single spaces", v, len(words))
	}
	r := Rule{Action: words[0], Target: words[2]}
	if r.Action != "upsert" && r.Action != "delete" {
		return Rule{}, fmt.Errorf("change rule %q: %q is not upsert or delete", v, words[0])
	}
	switch words[1] {
	case "before":
		r.Before = true
	case "after":
	default:
		return Rule{}, fmt.Errorf("change rule %q: %q is not after or before", v, words[1])
	}
	if r.Target != "upserting" && r.Target != "deleting" {
		return Rule{}, fmt.Errorf("change rule %q: %q is not upserting or deleting", v, words[2])
	}
	g, err := groupName(o, words[3])
	if err != nil {
		return Rule{}, fmt.Errorf("change rule %q: %w", v, err)
	}
	r.Group = g
	return r, nil
}

var placeholder = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\{[a-z-]+\}`) })

// groupName fills kapp's placeholders in v and checks that the result is a
// qualified name, as kapp requires (an optional DNS subdomain and "/",
// then up to 63 letters, digits, '-', '_' or '.', starting and ending
// alphanumeric).
func groupName(o Object, v string) (string, error) {
	var bad error
	name := placeholder().ReplaceAllStringFunc(v, func(ph string) string {
		switch ph {
		case "{api-group}":
			return o.Group
		case "{kind}":
			return o.Kind
		case "{name}":
			return o.Name
		case "{namespace}":
			return o.Namespace
		case "{crd-group}", "{crd-kind}":
			if o.CRDKind == "" {
				bad = fmt.Errorf("%s is only for CustomResourceDefinitions", ph)
			}
			if ph == "{crd-group}" {
				return o.CRDGroup
			}
			return o.CRDKind
		}
		bad = fmt.Errorf("unknown placeholder %s: use {api-group}, {kind}, {name}, {namespace}, {crd-group} or {crd-kind}", ph)
		return ph
	})
	if bad != nil {
		return "", bad
	}
	if !qualifiedName(name) {
		return "", fmt.Errorf("group %q is not a qualified name: an optional DNS prefix and '/', then at most 63 letters, digits, '-', '_' or '.', starting and ending with a letter or digit", name)
	}
	return name, nil
}

// nameRE and prefixRE are the two parts of a qualified name, compiled on
// first use (only objects with a change-group or change-rule annotation
// need them).
var (
	nameRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[A-Za-z0-9]([-A-Za-z0-9_.]{0,61}[A-Za-z0-9])?$`)
	})
	prefixRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$`)
	})
)

func qualifiedName(s string) bool {
	prefix, name, found := strings.Cut(s, "/")
	if !found {
		return nameRE().MatchString(s)
	}
	return prefix != "" && len(prefix) <= 253 && prefixRE().MatchString(prefix) && nameRE().MatchString(name)
}
