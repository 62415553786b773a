//go:build !unix

package source

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// gitLockStale is the age after which a lock file is taken to belong to a
// process that died without removing it.
const gitLockStale = 15 * time.Minute

// lockFile creates path exclusively (O_EXCL), waiting while another holder
// has it, until ctx is done. A lock file older than gitLockStale is removed.
// The holder refreshes its time every minute while it holds the lock.
func lockFile(ctx context.Context, path string) (unlock func(), err error) {
	wait := 10 * time.Millisecond
	for {
		f, err := os.OpenFile(path, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644)
		if err == nil {
			fmt.Fprintf(f, "%d\n", os.Getpid())
			f.Close()
			done := make(chan struct{})
			go func() {
				t := time.NewTicker(time.Minute)
				defer t.Stop()
				for {
					select {
					case <-done:
						return
					case now := <-t.C:
						os.Chtimes(path, now, now)
					}
				}
			}()
			return func() { close(done); os.Remove(path) }, nil
		}
		if !errors.Is(err, fs.ErrExist) {
			return nil, err
		}
		if fi, err := os.Stat(path); err == nil && time.Since(fi.ModTime()) > gitLockStale {
			os.Remove(path)
			continue
		}
		select {
		case <-ctx.Done():
			return nil, ctx.Err()
		case <-time.After(wait):
		}
		if wait < 250*time.Millisecond {
			wait *= 2
		}
	}
}
