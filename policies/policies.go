package policies

import (
	"slices"
	"strings"

	"github.com/kubeplan/kubeplan/manifest"
)

// Severities a Rule can default to.
const (
	SeverityError   = "error"
	SeverityWarning = "warning"
)

// Options are the command-line settings rules may depend on.
type Options struct {
	// Namespace is the --namespace given to lint or plan, or the
	// project's namespace; "" when not given.
	Namespace string
	// NamespaceFrom names where Namespace comes from, for messages; ""
	// means --namespace.
	NamespaceFrom string
}

// Violation is one place where an object breaks a rule.
type Violation struct {
	Object *manifest.Object
	// Path is the field the message is about (map keys, decimal list
	// indexes); the lint package turns it into file:line:col.
	Path []string
	// Message is one sentence a person understands, saying what to do.
	Message string
}

// Rule is a built-in policy.
type Rule struct {
	ID string
	// Severity is the default severity: SeverityError or SeverityWarning.
	Severity string
	// Description is one line, shown by `kubeplan lint --list-rules`.
	Description string
	// Check returns the violations in objs, in input order.
	Check func(objs []*manifest.Object, opts Options) []Violation
	// SetWide is true when Check needs the whole set at once; other rules
	// look at one object at a time and may be run on any subset. The
	// streamed lint gives set-wide rules only the objects that share a key
	// with another (duplicate-object) and the autoscalers with the
	// workloads setting replicas they scale (hpa-replicas): see
	// lint.setWideFindings, which a new set-wide rule must extend.
	SetWide bool
}

var rules = sortedRules(
	replicasZero,
	imageLatest,
	plaintextSecret,
	namespaceMismatch,
	duplicateObject,
	applysetLabel,
	hpaReplicas,
	sealedSecretScope,
)

func sortedRules(rs ...Rule) []Rule {
	slices.SortFunc(rs, func(a, b Rule) int { return strings.Compare(a.ID, b.ID) })
	return rs
}

// All returns the built-in rules sorted by ID. The slice is a copy.
func All() []Rule { return slices.Clone(rules) }

// ByID returns the built-in rule with the given id.
func ByID(id string) (Rule, bool) {
	i, ok := slices.BinarySearchFunc(rules, id, func(r Rule, id string) int { return strings.Compare(r.ID, id) })
	if !ok {
		return Rule{}, false
	}
	return rules[i], true
}

// eachObject adapts a check of one object to a Rule.Check, skipping objects
// without a kind.
func eachObject(check func(o *manifest.Object, opts Options) []Violation) func([]*manifest.Object, Options) []Violation {
	return func(objs []*manifest.Object, opts Options) []Violation {
		var out []Violation
		for _, o := range objs {
			if o == nil || o.Kind == "" {
				continue
			}
			out = append(out, check(o, opts)...)
		}
		return out
	}
}
