package kube

import (
	"context"
	"sync"

	"k8s.io/client-go/rest"
)

// Warnings collects the warnings the API server returns (its Warning
// headers: deprecated APIs, Pod Security, unknown or duplicate fields)
// for the requests made with one context (CaptureWarnings). It is safe
// for concurrent use.
type Warnings struct {
	mu   sync.Mutex
	list []string
	seen map[string]bool
}

// List returns the warnings in the order the server sent them, each once.
func (w *Warnings) List() []string {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]string(nil), w.list...)
}

func (w *Warnings) add(text string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.seen[text] {
		// A dry-run made again with force (after conflicts) returns the
		// same warnings: they are one problem, said once.
		return
	}
	if w.seen == nil {
		w.seen = map[string]bool{}
	}
	w.seen[text] = true
	w.list = append(w.list, text)
}

type warningsKey struct{}

// CaptureWarnings returns a context whose requests record the server's
// warnings in the returned Warnings. Each object's dry-run gets its own,
// so concurrent requests never mix their warnings.
func CaptureWarnings(ctx context.Context) (context.Context, *Warnings) {
	w := &Warnings{}
	return context.WithValue(ctx, warningsKey{}, w), w
}

// contextWarnings hands each warning to the Warnings of the request's
// context. A request made without one drops its warnings, as kubeplan
// always did: client-go would otherwise log them, and kubeplan prints
// what the server says only where it belongs, once.
type contextWarnings struct{}

var _ rest.WarningHandlerWithContext = contextWarnings{}

func (contextWarnings) HandleWarningHeaderWithContext(ctx context.Context, code int, _ string, text string) {
	if code != 299 || text == "" {
		return // 299 is the only code the API server sends (RFC 7234 "miscellaneous persistent warning")
	}
	if w, ok := ctx.Value(warningsKey{}).(*Warnings); ok {
		w.add(text)
	}
}
