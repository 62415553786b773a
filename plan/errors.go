package plan

import (
	"errors"
	"fmt"
	"net/url"
	"strings"
)

// ObjectError is a problem with one object of the set, located in its file.
type ObjectError struct {
	Ref    Ref
	Source Source
	Err    error
}

func (e *ObjectError) Error() string {
	where := e.Source.String()
	if where != "" {
		where += ": "
	}
	return fmt.Sprintf("%s%s: %v", where, e.Ref, e.Err)
}

func (e *ObjectError) Unwrap() error { return e.Err }

// Errors is every object that failed, reported together.
type Errors []*ObjectError

func (es Errors) Error() string {
	lines := append([]string{fmt.Sprintf("%d object(s) cannot be planned:", len(es))}, Summarize(es)...)
	return strings.Join(lines, "\n  ")
}

// Summarize says what went wrong with objects, one line per root cause:
// objects that failed alike (the connection refused, a webhook down) are
// one line with their count and the first of them, e.g.
// "311 objects failed: dial tcp 10.0.0.1:443: connect: connection refused
// (https://10.0.0.1:443); first: configmap/cm-1 (cm.yaml:1:1)". An error
// of its own keeps its line.
func Summarize(es []*ObjectError) []string {
	fs := make([]Failure, len(es))
	for i, e := range es {
		fs[i] = Failure{Ref: e.Ref, Source: e.Source, Err: e.Err, Line: e.Error()}
	}
	return SummarizeFailures(fs)
}

// Failure is one object that failed, for SummarizeFailures: Err is its
// error, Line what is shown when it failed alone.
type Failure struct {
	Ref    Ref
	Source Source
	Err    error
	Line   string
}

// SummarizeFailures is Summarize for failures whose lines the caller
// words (apply's errors already name their object).
func SummarizeFailures(fs []Failure) []string {
	type group struct {
		first Failure
		n     int
	}
	var order []string
	groups := map[string]*group{}
	for _, f := range fs {
		k := rootCause(f.Err)
		if groups[k] == nil {
			groups[k] = &group{first: f}
			order = append(order, k)
		}
		groups[k].n++
	}
	var lines []string
	for _, k := range order {
		g := groups[k]
		if g.n == 1 {
			lines = append(lines, g.first.Line)
			continue
		}
		first := g.first.Ref.String()
		if src := g.first.Source.String(); src != "" {
			first += " (" + src + ")"
		}
		lines = append(lines, fmt.Sprintf("%d objects failed: %s; first: %s", g.n, k, first))
	}
	return lines
}

// rootCause is what objects that failed for the same reason share: for a
// request that never got an answer, the network error and the server
// (not the object's URL); otherwise the error itself.
func rootCause(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if u, perr := url.Parse(ue.URL); perr == nil {
			return fmt.Sprintf("%v (%s://%s)", ue.Err, u.Scheme, u.Host)
		}
		return ue.Err.Error()
	}
	return err.Error()
}
