package plan

import (
	"fmt"
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
	lines := make([]string, 0, len(es)+1)
	lines = append(lines, fmt.Sprintf("%d object(s) cannot be planned:", len(es)))
	for _, e := range es {
		lines = append(lines, "  "+e.Error())
	}
	return strings.Join(lines, "\n")
}
