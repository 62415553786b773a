package run

import (
	"context"
	"time"
)

// Loop runs round again and again until ctx ends, sleeping between two
// rounds for the time the last one returned: kubeplan serve's rounds and
// kubeplan apply --interval's runs. A round under way is never cut by the
// loop: once ctx ends, the loop returns after it.
func Loop(ctx context.Context, round func() time.Duration) {
	for {
		wait := round()
		select {
		case <-ctx.Done():
			return
		case <-time.After(wait):
		}
	}
}
