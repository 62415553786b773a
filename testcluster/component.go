package main

import (
	"context"
	"fmt"
	"time"
)

// component is one part of the cluster running in a goroutine of this process.
type component struct {
	name   string
	cancel context.CancelFunc
	exited chan struct{} // closed when run has returned
	err    error         // what run returned; read after exited is closed
}

// startComponent runs run in a goroutine with its own context. If it returns
// for any reason, a message goes to failed (which must have room for it).
func startComponent(name string, failed chan<- error, run func(ctx context.Context) error) *component {
	ctx, cancel := context.WithCancel(context.Background())
	c := &component{name: name, cancel: cancel, exited: make(chan struct{})}
	go func() {
		defer close(c.exited)
		c.err = run(ctx)
		if ctx.Err() == nil {
			failed <- fmt.Errorf("%s stopped: %v", name, c.err)
		}
	}()
	return c
}

// stop cancels the component and waits up to timeout for it to return.
func (c *component) stop(timeout time.Duration) error {
	if c == nil {
		return nil
	}
	c.cancel()
	select {
	case <-c.exited:
		return nil
	case <-time.After(timeout):
		return fmt.Errorf("%s did not stop within %s", c.name, timeout)
	}
}
