package notify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"time"

	"github.com/kubeplan/kubeplan/internal/ghcomment"
)

// attempts bounds the tries of one request; the backoff doubles from
// Notifier.backoff between them, and Config.Timeout bounds them all.
const attempts = 4

// retry calls f until it succeeds, fails in a way another try cannot fix,
// has been tried attempts times, or ctx ends.
func (n *Notifier) retry(ctx context.Context, f func(context.Context) error) error {
	delay := n.backoff
	for try := 1; ; try++ {
		err := f(ctx)
		if err == nil || !retryable(err) || try == attempts || ctx.Err() != nil {
			if err != nil && try > 1 {
				err = fmt.Errorf("%w (after %d tries)", err, try)
			}
			return err
		}
		t := time.NewTimer(delay)
		select {
		case <-ctx.Done():
			t.Stop()
			return fmt.Errorf("%w (after %d tries; out of time)", err, try)
		case <-t.C:
		}
		delay *= 2
	}
}

// statusError is a webhook's answer other than 2xx.
type statusError struct{ code int }

func (e *statusError) Error() string {
	return fmt.Sprintf("%d %s", e.code, http.StatusText(e.code))
}

// retryable: a server error, too many requests, or the network (a timeout,
// a refused or cut connection). A refusal (4xx) or a bad request is not.
func retryable(err error) bool {
	var code int
	var se *statusError
	var ae *ghcomment.APIError
	switch {
	case errors.As(err, &se):
		code = se.code
	case errors.As(err, &ae):
		code = ae.Status
	default:
		var ne net.Error
		return errors.As(err, &ne) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF)
	}
	return code >= 500 || code == http.StatusTooManyRequests
}
