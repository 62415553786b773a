package lint

import (
	"fmt"
	"sort"

	"github.com/kubeplan/kubeplan/manifest"
)

// Severity grades a Finding. The zero value is Info.
type Severity int

const (
	Info Severity = iota
	Warning
	Error
)

func (s Severity) String() string {
	switch s {
	case Error:
		return "error"
	case Warning:
		return "warning"
	default:
		return "info"
	}
}

// ParseSeverity reads "error", "warning" or "info".
func ParseSeverity(s string) (Severity, error) {
	switch s {
	case "error":
		return Error, nil
	case "warning", "warn":
		return Warning, nil
	case "info", "note":
		return Info, nil
	}
	return Info, fmt.Errorf("unknown severity %q (want error, warning or info)", s)
}

// MarshalText makes Severity appear as its name in JSON.
func (s Severity) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a severity name.
func (s *Severity) UnmarshalText(b []byte) error {
	v, err := ParseSeverity(string(b))
	if err != nil {
		return err
	}
	*s = v
	return nil
}

// Finding is one problem lint found in one place. Findings are data: a bad
// manifest produces findings, a tool failure produces an error.
type Finding struct {
	File     string   `json:"file"`
	Line     int      `json:"line"`
	Col      int      `json:"column"`
	EndLine  int      `json:"endLine,omitempty"`
	EndCol   int      `json:"endColumn,omitempty"`
	Severity Severity `json:"severity"`
	Rule     string   `json:"rule"`
	Message  string   `json:"message"`
	// Object names the object the finding is about, kubectl style
	// ("deployment.apps/web"), empty when the finding is about a file.
	Object string `json:"object,omitempty"`
	// Namespace of the object, when it has one.
	Namespace string `json:"namespace,omitempty"`
	// Field is the dotted path of the field ("spec.replicas"), when known.
	Field string `json:"field,omitempty"`
}

// Report is the result of linting a set of paths.
type Report struct {
	Findings []Finding `json:"findings"`
	Files    int       `json:"files"`
	Objects  int       `json:"objects"`
	// Linted lists the objects linted, one per document, sorted by file
	// and line; only with Options.ListObjects.
	Linted []ObjectRef `json:"-"`
}

// Count returns how many findings have the given severity.
func (r Report) Count(s Severity) int {
	n := 0
	for _, f := range r.Findings {
		if f.Severity == s {
			n++
		}
	}
	return n
}

// Sort orders findings by file, line, column, rule and message, so every
// output is deterministic.
func Sort(fs []Finding) {
	sort.SliceStable(fs, func(i, j int) bool {
		a, b := fs[i], fs[j]
		if a.File != b.File {
			return a.File < b.File
		}
		if a.Line != b.Line {
			return a.Line < b.Line
		}
		if a.Col != b.Col {
			return a.Col < b.Col
		}
		if a.Rule != b.Rule {
			return a.Rule < b.Rule
		}
		return a.Message < b.Message
	})
}

// placeKey is what makes two findings the same report: one rule saying one
// thing at one file:line:col.
type placeKey struct {
	file      string
	line, col int
	rule, msg string
}

func keyOf(f Finding) placeKey { return placeKey{f.File, f.Line, f.Col, f.Rule, f.Message} }

// Dedupe sorts findings (Sort) and keeps one of those made at the same
// file:line:col by the same rule with the same message. A file several
// kustomizations or projects read (a base's Secret that three overlays
// build into three namespaces) yields one finding per build, differing
// only in the object they name; it is one thing to fix, reported once,
// naming the object of the least namespace and name (as the report's
// Linted list does). Two different messages of one rule at one place (two
// required fields missing from one mapping) are two problems and both are
// kept. Sorted, repeats are neighbours: no memory beyond fs is needed.
func Dedupe(fs []Finding) []Finding {
	Sort(fs)
	out := fs[:0]
	for _, f := range fs {
		if n := len(out); n > 0 && keyOf(out[n-1]) == keyOf(f) {
			if g := out[n-1]; lessLabel(f.Namespace, f.Object, g.Namespace, g.Object) {
				out[n-1] = f
			}
			continue
		}
		out = append(out, f)
	}
	return out
}

// dedupe remembers where each place's finding is in a slice being built
// from several reports (runGroups), so repeats never pile up.
type dedupe struct{ at map[placeKey]int }

// add appends f to *out, or keeps it in place of the finding already there
// for its place when f names a lesser object.
func (d *dedupe) add(out *[]Finding, f Finding) {
	if d.at == nil {
		d.at = map[placeKey]int{}
	}
	k := keyOf(f)
	if i, ok := d.at[k]; ok {
		if g := (*out)[i]; lessLabel(f.Namespace, f.Object, g.Namespace, g.Object) {
			(*out)[i] = f
		}
		return
	}
	d.at[k] = len(*out)
	*out = append(*out, f)
}

// problemSeverity grades a loading problem: an error unless it is marked a
// warning (a deprecated kustomize field) or an info (a tool's
// configuration file, skipped).
func problemSeverity(p *manifest.Problem) Severity {
	switch {
	case p.Info:
		return Info
	case p.Warning:
		return Warning
	}
	return Error
}
