package stage

import "fmt"

// Object is what the stage model needs of one manifest object: its
// identity, its annotations and where each annotation's value is.
type Object struct {
	// Ref names the object in messages, e.g. "job.batch/migrate".
	Ref string
	// Group, Kind, Namespace and Name fill kapp's placeholders in group
	// names ({api-group}, {kind}, {namespace}, {name}).
	Group, Kind, Namespace, Name string
	// CRDGroup and CRDKind are spec.group and spec.names.kind of a
	// CustomResourceDefinition, for {crd-group} and {crd-kind}.
	CRDGroup, CRDKind string
	// Annotations are metadata.annotations with string values.
	Annotations map[string]string
	// File is the file the object was read from.
	File string
	// Pos, when set, is where the value of the annotation key is: its
	// file ("" for File: an overlay's patch may set it elsewhere), line
	// and column (0, 0 when unknown).
	Pos func(key string) (file string, line, col int)
}

// Problem is an ordering annotation kubeplan cannot follow, at the
// annotation's value.
type Problem struct {
	// Object is the index of the object in the slice given to Resolve
	// (0 for Read).
	Object int
	// Rule is ProblemAnnotation, ProblemUnknownGroup or ProblemCycle.
	Rule string
	// Annotation is the key whose value is at fault.
	Annotation string
	// Message says what is wrong and what to do.
	Message string
	// File, Line and Col locate the annotation's value.
	File      string
	Line, Col int
}

// Rules of a Problem (lint reports them under these ids).
const (
	// ProblemAnnotation: a value the vocabulary does not allow (a wave
	// that is not an integer, an unknown hook phase or delete policy, a
	// malformed change rule or group name).
	ProblemAnnotation = "order-annotation"
	// ProblemUnknownGroup: a change rule names a group no object has.
	ProblemUnknownGroup = "order-unknown-group"
	// ProblemCycle: change rules that wait on each other, or a rule the
	// waves or phases contradict.
	ProblemCycle = "order-cycle"
)

// Error is "file:line:col: message".
func (p Problem) Error() string {
	return fmt.Sprintf("%s:%d:%d: %s", p.File, p.Line, p.Col, p.Message)
}

// Problems are the problems of a set; as an error, they fail a run.
type Problems []Problem

// Err is nil without problems, else an error listing them.
func (ps Problems) Err() error {
	if len(ps) == 0 {
		return nil
	}
	return ps
}

// Error lists the problems, one a line.
func (ps Problems) Error() string {
	s := ""
	for i, p := range ps {
		if i > 0 {
			s += "\n"
		}
		s += p.Error()
	}
	return s
}

func (o Object) problem(idx int, rule, key, msg string) Problem {
	p := Problem{Object: idx, Rule: rule, Annotation: key, Message: msg, File: o.File}
	if o.Pos != nil {
		var file string
		if file, p.Line, p.Col = o.Pos(key); file != "" {
			p.File = file
		}
	}
	return p
}
