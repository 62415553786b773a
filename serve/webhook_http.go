package serve

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"strings"
	"time"
)

// webhooks receives push webhooks on /hooks/github, /hooks/gitlab and
// /hooks/generic. A request is answered at once; an accepted push only
// marks the source pushed and wakes the loop (pushed), whose next round
// fetches and runs the projects the push changed.
type webhooks struct {
	// secretFile holds the shared secret; read at every request, so a
	// rotated Secret is taken without a restart. Never shown.
	secretFile string
	// branch is the source's branch; "" takes a push of any branch.
	branch string
	m      *metrics
	pushed func(provider string, p push)
	logf   func(format string, args ...any)
}

// readSecret reads the webhook secret from file (surrounding white space
// trimmed); an empty one is an error, never a secret that anyone knows.
func readSecret(file string) ([]byte, error) {
	b, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("--webhook-secret-file: %w", err)
	}
	s := strings.TrimSpace(string(b))
	if s == "" {
		return nil, fmt.Errorf("--webhook-secret-file %s is empty: put the webhook's shared secret in it", file)
	}
	return []byte(s), nil
}

// newWebhookServer serves the webhooks, apart from /metrics.
func newWebhookServer(wh *webhooks) *http.Server {
	mux := http.NewServeMux()
	for _, p := range []string{ProviderGitHub, ProviderGitLab, ProviderGeneric} {
		mux.Handle("/hooks/"+p, wh.handler(p))
	}
	return &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, ReadTimeout: 30 * time.Second,
		MaxHeaderBytes: 64 << 10}
}

// handler answers one provider's requests and counts them.
func (wh *webhooks) handler(provider string) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		status, result, msg := wh.handle(provider, w, r)
		wh.m.webhook(provider, result)
		if status == http.StatusMethodNotAllowed {
			w.Header().Set("Allow", http.MethodPost)
		}
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(status)
		_, _ = io.WriteString(w, msg+"\n")
	}
}

// handle checks one request and, for a push of the source's branch,
// calls pushed. It returns the answer's status, the result label and its
// text.
func (wh *webhooks) handle(provider string, w http.ResponseWriter, r *http.Request) (int, string, string) {
	if r.Method != http.MethodPost {
		return http.StatusMethodNotAllowed, hookMethod, "only POST"
	}
	if r.ContentLength > MaxWebhookBody {
		return http.StatusRequestEntityTooLarge, hookTooLarge, fmt.Sprintf("the body is over %d bytes", MaxWebhookBody)
	}
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, MaxWebhookBody))
	if err != nil {
		var tooLarge *http.MaxBytesError
		if errors.As(err, &tooLarge) {
			return http.StatusRequestEntityTooLarge, hookTooLarge, fmt.Sprintf("the body is over %d bytes", MaxWebhookBody)
		}
		return http.StatusBadRequest, hookInvalid, "reading the body failed"
	}
	secret, err := readSecret(wh.secretFile)
	if err != nil {
		wh.logf("webhook: %v", err)
		return http.StatusInternalServerError, hookFailed, "the webhook secret cannot be read (see the log of kubeplan serve)"
	}
	p, herr := verify(provider, r.Header, body, secret)
	if herr != nil {
		return herr.status, herr.result, herr.msg
	}
	switch {
	case p.ping:
		return http.StatusOK, hookPing, "pong"
	case p.ignore != "":
		return http.StatusAccepted, hookIgnored, "ignored: " + p.ignore
	case wh.branch != "" && p.branch != "" && p.branch != wh.branch:
		return http.StatusAccepted, hookIgnored, fmt.Sprintf("ignored: branch %s is not the source's (%s)", p.branch, wh.branch)
	}
	wh.pushed(provider, p)
	return http.StatusAccepted, hookAccepted, "accepted: fetching; the projects the push changed run now"
}
