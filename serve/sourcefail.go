package serve

import (
	"context"
	"errors"
	"net"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport"

	"github.com/kubeplan/kubeplan/apply"
)

// Reasons a git source fails, the reason label of
// kubeplan_source_failures_total and SourceFailing.Reason: a fixed set.
const (
	SourceAuth     = "auth"      // the credentials were refused or are missing
	SourceNotFound = "not-found" // no such repository or branch
	SourceNetwork  = "network"   // the host cannot be reached
	SourceTimeout  = "timeout"   // the fetch took longer than its bound
	SourceConfig   = "config"    // fetched, but its projects cannot be read (kubeplan.yaml)
	SourceOther    = "other"
)

// SourceReasons are every value of the reason label (docs/serve.md).
func SourceReasons() []string {
	return []string{SourceAuth, SourceNotFound, SourceNetwork, SourceTimeout, SourceConfig, SourceOther}
}

// maxSourceMessage caps the error recorded on the parents and sent.
const maxSourceMessage = 1024

// sourceReason is why the source failed, from its error: what the git
// transport said when the error still wraps it, else its words (the
// source's errors are redacted of credentials, and then keep no cause).
func sourceReason(err error) string {
	var cfg *configError
	var nerr net.Error
	var dns *net.DNSError
	var op *net.OpError
	msg := strings.ToLower(sourceWords(err.Error()))
	switch {
	case errors.As(err, &cfg):
		return SourceConfig
	case errors.Is(err, context.DeadlineExceeded) || errors.As(err, &nerr) && nerr.Timeout() ||
		strings.Contains(msg, "timeout") || strings.Contains(msg, "deadline exceeded") || strings.Contains(msg, "timed out"):
		return SourceTimeout
	case errors.Is(err, transport.ErrAuthenticationRequired) || errors.Is(err, transport.ErrAuthorizationFailed) ||
		strings.Contains(msg, "authentication") || strings.Contains(msg, "authorization failed") ||
		strings.Contains(msg, "permission denied") || strings.Contains(msg, "unable to authenticate") ||
		credentialFile().MatchString(msg):
		return SourceAuth
	case errors.Is(err, transport.ErrRepositoryNotFound) || strings.Contains(msg, "not found") || strings.Contains(msg, "does not exist"):
		return SourceNotFound
	case errors.As(err, &dns) || errors.As(err, &op) || strings.Contains(msg, "connection refused") ||
		strings.Contains(msg, "no such host") || strings.Contains(msg, "unreachable") || strings.Contains(msg, "connection reset") ||
		eofWord().MatchString(msg):
		return SourceNetwork
	}
	return SourceOther
}

// credentialFile is a credential file that cannot be read, or is empty
// (source.AuthFiles).
var credentialFile = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`reading the (token file|ssh key|known_hosts)|the token file .* is empty`)
})

// eofWord is a connection cut short ("unexpected EOF").
var eofWord = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\beof\b`) })

// sourceWords is what a source's error says past its "git source URL
// (ref BRANCH): " prefix: the URL's own words (a repository named
// timeout-tools) say nothing of the failure.
func sourceWords(msg string) string {
	if rest, ok := strings.CutPrefix(msg, "git source "); ok {
		if _, after, ok := strings.Cut(rest, ": "); ok {
			return after
		}
	}
	return msg
}

// configError is a source fetched whose projects cannot be read.
type configError struct{ err error }

func (e *configError) Error() string { return e.err.Error() }
func (e *configError) Unwrap() error { return e.err }

// SourceStatus is a change of the git source's state: it began failing
// (Err set), or it recovered (Err nil). Options.OnSource receives it.
type SourceStatus struct {
	Err    error
	Reason string    // SourceReasons; "" on recovery
	Since  time.Time // when it began failing
	End    time.Time // when this was seen
	// Revision is the last commit serve fetched ("" when none yet).
	Revision string
}

// sourceState is whether the source fails, since when and why.
type sourceState struct {
	mu      sync.Mutex
	failing bool
	since   time.Time
	reason  string
}

// failed notes a failure now; changed is true when the source was fine
// until now, or fails for another reason.
func (st *sourceState) failed(reason string, now time.Time) (since time.Time, first, changed bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	first = !st.failing
	changed = first || st.reason != reason
	if first {
		st.failing, st.since = true, now
	}
	st.reason = reason
	return st.since, first, changed
}

// ok notes a good fetch; recovered is true when the source failed until
// now, since when.
func (st *sourceState) ok() (since time.Time, recovered bool) {
	st.mu.Lock()
	defer st.mu.Unlock()
	if !st.failing {
		return time.Time{}, false
	}
	since = st.since
	st.failing, st.since, st.reason = false, time.Time{}, ""
	return since, true
}

// sourceFailed records a round whose source could not be fetched or
// read: counted each time; when it begins (or its reason changes), the
// log line, the Event and the kubeplan.dev/source-failing record on each
// known project's parent, and once OnSource.
func (s *server) sourceFailed(ctx context.Context, err error) {
	now := time.Now()
	reason := sourceReason(err)
	since, first, changed := s.srcState.failed(reason, now)
	s.m.sourceFailed(reason, since)
	s.logf("%v", err)
	if !changed {
		return
	}
	if first {
		s.logf("the git source fails (%s) since %s: nothing is applied or pruned until it is fetched again", reason, since.UTC().Format(time.RFC3339))
	}
	msg := err.Error()
	if len(msg) > maxSourceMessage {
		msg = msg[:maxSourceMessage] + "…"
	}
	rec := apply.SourceFailing{Since: since.UTC().Format(time.RFC3339), Reason: reason, Message: msg}
	s.markParents(ctx, &rec, since)
	if first && s.o.OnSource != nil {
		s.o.OnSource(ctx, SourceStatus{Err: err, Reason: reason, Since: since, End: now, Revision: s.src.revision()})
	}
}

// sourceOK records a good fetch: when the source failed until now, the
// recovery (log line, Event, the records removed, OnSource).
func (s *server) sourceOK(ctx context.Context) {
	s.m.sourceOK()
	since, recovered := s.srcState.ok()
	if !recovered {
		return
	}
	s.logf("the git source is fetched again (it failed since %s)", since.UTC().Format(time.RFC3339))
	s.markParents(ctx, nil, since)
	if s.o.OnSource != nil {
		s.o.OnSource(ctx, SourceStatus{Since: since, End: time.Now(), Revision: s.src.revision()})
	}
}
