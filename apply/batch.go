package apply

import (
	"golang.org/x/sync/errgroup"

	"github.com/kubeplan/kubeplan/plan"
)

// eachChange runs do on every change of batch, at most limit at a time,
// and returns the results of the calls that succeeded, in batch order, and
// every call's error by index (nil for the ones that succeeded), for
// joinFailures.
func eachChange(batch []plan.Change, limit int, do func(plan.Change) (ObjectResult, error)) ([]ObjectResult, []error) {
	results := make([]ObjectResult, len(batch))
	errs := make([]error, len(batch))
	var g errgroup.Group
	g.SetLimit(limit)
	for i := range batch {
		g.Go(func() error {
			results[i], errs[i] = do(batch[i])
			return nil
		})
	}
	_ = g.Wait() // every call returns nil: errors are kept per index
	var done []ObjectResult
	for i := range batch {
		if errs[i] == nil {
			done = append(done, results[i])
		}
	}
	return done, errs
}
