package health

import (
	"fmt"
	"strings"
	"time"
)

// UnhealthyError is Wait's failure: the objects that are not healthy,
// one line each.
type UnhealthyError struct {
	// Results are the objects that failed (when the wait stopped because
	// of a failure) or that were still pending (timeout, cancellation),
	// in input order.
	Results []Result
	// Timeout is true when the wait timed out (WaitOptions.Timeout or a
	// deadline on ctx).
	Timeout bool
	// After is how long the wait lasted.
	After time.Duration
	// Err is the context's error when the wait was cut short (Unwrap
	// returns it), nil when objects failed.
	Err error
}

// Lines returns one "ref: message" line per object.
func (e *UnhealthyError) Lines() []string {
	lines := make([]string, 0, len(e.Results))
	for _, r := range e.Results {
		msg := r.Message
		if msg == "" {
			msg = r.Status
		}
		lines = append(lines, r.Ref.String()+": "+msg)
	}
	return lines
}

func (e *UnhealthyError) Error() string {
	var head string
	switch {
	case e.Timeout:
		head = fmt.Sprintf("timed out after %s waiting for %s to become healthy:", e.After.Round(time.Second), healthCount(len(e.Results)))
	case e.Err != nil:
		head = fmt.Sprintf("stopped waiting for %s to become healthy: %v:", healthCount(len(e.Results)), e.Err)
	default:
		head = fmt.Sprintf("%s failed:", healthCount(len(e.Results)))
	}
	return strings.Join(append([]string{head}, e.Lines()...), "\n")
}

func (e *UnhealthyError) Unwrap() error { return e.Err }

func healthCount(n int) string {
	if n == 1 {
		return "1 object"
	}
	return fmt.Sprintf("%d objects", n)
}
