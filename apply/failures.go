package apply

import (
	"strings"

	"github.com/kubeplan/kubeplan/plan"
)

// failures is the error of a stage where objects failed: one line per
// root cause (plan.SummarizeFailures), so a connection that went away is
// one line with a count and the first object, not one line per object.
type failures struct {
	heading string
	errs    []error
	lines   []string
}

// joinFailures builds it from the changes and their errors (nil for the
// ones that succeeded); nil when none failed.
func joinFailures(heading string, changes []plan.Change, errs []error) error {
	f := &failures{heading: heading}
	var fs []plan.Failure
	for i, err := range errs {
		if err != nil {
			f.errs = append(f.errs, err)
			fs = append(fs, plan.Failure{Ref: changes[i].Ref, Source: changes[i].Source, Err: err, Line: err.Error()})
		}
	}
	if len(f.errs) == 0 {
		return nil
	}
	f.lines = plan.SummarizeFailures(fs)
	return f
}

func (f *failures) Error() string {
	if len(f.lines) == 1 {
		return f.heading + ": " + f.lines[0]
	}
	return f.heading + ":\n  " + strings.Join(f.lines, "\n  ")
}

func (f *failures) Unwrap() []error { return f.errs }
