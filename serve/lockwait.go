package serve

import (
	"context"
	"errors"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/run"
)

// lockPoll is how often a waiting replica reads the Lease.
const lockPoll = time.Second

// lockedBy reports whether a project's run failed only because another
// replica holds its ApplySet's lock.
func lockedBy(pr run.ProjectReport) bool {
	var le *apply.LockedError
	return pr.Status == run.Failed && errors.As(pr.Err, &le)
}

// waitUnlocked waits until the project's lock is free, at most until
// deadline, or until the process stops. It reports whether the lock is
// free.
func (s *server) waitUnlocked(ctx context.Context, pr run.ProjectReport, deadline time.Time) bool {
	c, _, err := s.cls.Connector(pr.Project)
	if err != nil {
		return false
	}
	as, err := applyset.ParseParentFlag(pr.ApplySet, pr.Namespace)
	if err != nil {
		return false
	}
	ctx, cancel := context.WithDeadline(ctx, deadline)
	defer cancel()
	return apply.WaitUnlocked(ctx, c, as, lockPoll) == nil
}
