package notify

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// webhook sends "failing" or "recovered" when the run changed what the
// webhook was last told, and records it in st once delivered.
func (n *Notifier) webhook(ctx context.Context, r Run, st *ProjectState) error {
	if n.cfg.Webhook == "" {
		return nil
	}
	failing := r.Err != nil
	if failing == (st.Notified == KindFailing) {
		return nil // nothing new: still failing, or still fine
	}
	kind := KindRecovered
	if failing {
		kind = KindFailing
	}
	body, err := n.cfg.Words.Payload(n.cfg.Format, n.event(kind, r, st.FailingSince))
	if err != nil {
		return fmt.Errorf("webhook: %w", err)
	}
	if err := n.retry(ctx, func(ctx context.Context) error { return n.post(ctx, body) }); err != nil {
		return fmt.Errorf("webhook (%s): %w", kind, err)
	}
	st.Notified = ""
	if failing {
		st.Notified = KindFailing
	}
	return nil
}

// yieldWebhook sends r's yield hints, if any: serve makes each once, so
// no state is kept.
func (n *Notifier) yieldWebhook(ctx context.Context, r Run) error {
	if n.cfg.Webhook == "" || len(r.YieldHints) == 0 {
		return nil
	}
	hints := make([]string, len(r.YieldHints))
	for i, h := range r.YieldHints {
		hints[i] = n.scrub(h)
	}
	r.YieldHints = hints
	body, err := n.cfg.Words.Payload(n.cfg.Format, n.event(KindYieldSuggested, r, time.Time{}))
	if err != nil {
		return fmt.Errorf("webhook: %w", err)
	}
	if err := n.retry(ctx, func(ctx context.Context) error { return n.post(ctx, body) }); err != nil {
		return fmt.Errorf("webhook (%s): %w", KindYieldSuggested, err)
	}
	return nil
}

// post sends body to the webhook once. The URL (often a secret itself, as
// Slack's are) never appears in the error.
func (n *Notifier) post(ctx context.Context, body []byte) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, n.cfg.Webhook, bytes.NewReader(body))
	if err != nil {
		return errors.New("the webhook URL is not valid")
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("User-Agent", "kubeplan-serve")
	resp, err := n.hc.Do(req)
	if err != nil {
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return fmt.Errorf("POST: %w", err)
	}
	defer resp.Body.Close()
	_, _ = io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	if resp.StatusCode/100 != 2 {
		return &statusError{resp.StatusCode}
	}
	return nil
}
