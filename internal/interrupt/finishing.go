package interrupt

import (
	"context"
	"os"
	"os/signal"
	"syscall"
)

// Finishing returns a context cancelled by the first SIGINT or SIGTERM,
// for a verb that lets what is under way finish by itself (serve: the runs
// under way end, and it exits 0). After the first signal the default
// handling is back, so a second one kills the process. stop releases the
// signals.
func Finishing() (ctx context.Context, stop context.CancelFunc) {
	ctx, stop = signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	go func() { <-ctx.Done(); stop() }() // a second signal kills
	return ctx, stop
}
