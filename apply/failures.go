package apply

import (
	"fmt"
	"strings"

	"github.com/kubeplan/kubeplan/plan"
)

// failures is the error of a stage where objects failed: one line per
// root cause (plan.RootCause), so a connection that went away is one line
// with a count and the first object, not one line per object.
type failures struct {
	heading string
	errs    []error
	lines   []string
}

// joinFailures builds it from the changes and their errors (nil for the
// ones that succeeded); nil when none failed.
func joinFailures(heading string, changes []plan.Change, errs []error) error {
	type group struct {
		first plan.Change
		err   error
		n     int
	}
	var order []string
	groups := map[string]*group{}
	f := &failures{heading: heading}
	for i, err := range errs {
		if err == nil {
			continue
		}
		f.errs = append(f.errs, err)
		k := plan.RootCause(err)
		if groups[k] == nil {
			groups[k] = &group{first: changes[i], err: err}
			order = append(order, k)
		}
		groups[k].n++
	}
	if len(f.errs) == 0 {
		return nil
	}
	for _, k := range order {
		g := groups[k]
		if g.n == 1 {
			f.lines = append(f.lines, g.err.Error())
			continue
		}
		first := g.first.Ref.String()
		if src := g.first.Source.String(); src != "" {
			first += " (" + src + ")"
		}
		f.lines = append(f.lines, fmt.Sprintf("%d objects failed: %s; first: %s", g.n, k, first))
	}
	return f
}

func (f *failures) Error() string {
	if len(f.lines) == 1 {
		return f.heading + ": " + f.lines[0]
	}
	return f.heading + ":\n  " + strings.Join(f.lines, "\n  ")
}

func (f *failures) Unwrap() []error { return f.errs }
