package healthexpr

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Rule is one health rule, as Flux's healthCheckExprs writes it: the
// objects of APIVersion's group and Kind (the version is not compared),
// and CEL over the object's top-level fields. Current is required;
// InProgress and Failed are optional.
type Rule struct {
	APIVersion string
	Kind       string
	Current    string
	InProgress string
	Failed     string

	// File is the file the rule was read from ("" for a built-in); At is
	// where the rule is, Pos where the text of each key's value starts
	// ("current", "inProgress", ...). A key written as a folded block (>)
	// is in Folded: a column inside it cannot be found in the file.
	File   string
	At     Pos
	Pos    map[string]Pos
	Folded map[string]bool

	// name is a built-in's name ("cert-manager-certificate"); "" for a
	// user's rule.
	name string
	// match, for a built-in that is not about one kind (Crossplane's
	// claims, whose kinds every platform names), is CEL that is true for
	// the objects it is about; Kind is then "*".
	match string
}

// Pos is a line and a column (1-based) in a file.
type Pos struct{ Line, Col int }

// GroupKind is the group and kind the rule is about.
func (r Rule) GroupKind() schema.GroupKind {
	return schema.FromAPIVersionAndKind(r.APIVersion, r.Kind).GroupKind()
}

// Name names the rule in messages: "health rule Certificate.cert-manager.io
// (kubeplan.yaml:3:5)", or "built-in health rule cert-manager-certificate".
func (r Rule) Name() string {
	if r.name != "" {
		return "built-in health rule " + r.name
	}
	return fmt.Sprintf("health rule %s (%s)", gkString(r.GroupKind()), posOf(r.File, r.At))
}

func gkString(gk schema.GroupKind) string {
	if gk.Group == "" {
		return gk.Kind
	}
	return gk.Kind + "." + gk.Group
}

// keys are the expressions of a rule, in evaluation order (Flux's:
// inProgress, then failed, then current).
var keys = []string{"inProgress", "failed", "current"}

// expr is the text of key.
func (r Rule) expr(key string) string {
	switch key {
	case "current":
		return r.Current
	case "inProgress":
		return r.InProgress
	case "failed":
		return r.Failed
	}
	return ""
}

// rulePos is "file:line:col" of key's value, or of the rule.
func (r Rule) pos(key string) string {
	if p, ok := r.Pos[key]; ok && key != "" {
		return posOf(r.File, p)
	}
	return posOf(r.File, r.At)
}

// exprPos is where a CEL error at line, col (1-based line, 0-based column,
// inside the text of key) is in the file: the text's start plus the
// offset. A line past the first is one of a block scalar (|), whose lines
// start at the first's column; in a folded block the error is at the
// block's start.
func (r Rule) exprPos(key string, line, col int) string {
	p, ok := r.Pos[key]
	if !ok || line < 1 || r.Folded[key] {
		return r.pos(key)
	}
	if line > 1 && !strings.Contains(r.expr(key), "\n") {
		return posOf(r.File, p)
	}
	if line > 1 {
		return posOf(r.File, Pos{Line: p.Line + line - 1, Col: p.Col + col})
	}
	return posOf(r.File, Pos{Line: p.Line, Col: p.Col + col})
}

func posOf(file string, p Pos) string {
	if file == "" {
		file = "kubeplan.yaml"
	}
	if p.Line == 0 {
		return file
	}
	return fmt.Sprintf("%s:%d:%d", file, p.Line, p.Col)
}
