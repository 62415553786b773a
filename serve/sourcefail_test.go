package serve

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing/transport"
)

// TestSourceReason: the reason label is one of a fixed set, from the
// transport's error when it is still wrapped, else from the redacted
// error's words.
func TestSourceReason(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("fetch: %w", transport.ErrAuthenticationRequired), SourceAuth},
		{errors.New("git source https://***@github.com/x/y.git (ref main): fetch: authentication failed: the server refused the credentials"), SourceAuth},
		{fmt.Errorf("fetch: %w", transport.ErrRepositoryNotFound), SourceNotFound},
		{errors.New(`git source file:///tmp/x (ref main): branch "main" not found; remote branches: dev`), SourceNotFound},
		{errors.New("git source https://git.example.com/x.git: fetch: dial tcp: lookup git.example.com: no such host"), SourceNetwork},
		{errors.New("git source https://git.example.com/x.git: fetch: dial tcp 10.0.0.1:443: connect: connection refused"), SourceNetwork},
		{fmt.Errorf("fetch: %w", context.DeadlineExceeded), SourceTimeout},
		{&configError{errors.New("reading the projects at 0123456: kubeplan.yaml:3:5: unknown field")}, SourceConfig},
		{errors.New("something else"), SourceOther},
		{errors.New("git source https://git.example.com/x.git (ref main): reading the token file: open /var/run/secrets/kubeplan/git/token: no such file or directory"), SourceAuth},
		{errors.New("git source https://git.example.com/timeout-team/not-found.git (ref main): fetch: unexpected EOF"), SourceNetwork},
		{errors.New("git source https://git.example.com/geoff/auth-tools.git: invalid branch name \"a b\""), SourceOther},
	}
	valid := map[string]bool{}
	for _, r := range SourceReasons() {
		valid[r] = true
	}
	for _, tc := range cases {
		got := sourceReason(tc.err)
		if got != tc.want || !valid[got] {
			t.Errorf("sourceReason(%q) = %q, want %q", tc.err, got, tc.want)
		}
	}
}

// TestSourceState: a failure begins once (its since kept while it
// lasts), a change of reason is told, and the recovery once.
func TestSourceState(t *testing.T) {
	var st sourceState
	t0 := time.Now()
	if _, rec := st.ok(); rec {
		t.Error("a good fetch without a failure is no recovery")
	}
	since, first, changed := st.failed(SourceNetwork, t0)
	if !first || !changed || !since.Equal(t0) {
		t.Errorf("first failure: %v %v %v", since, first, changed)
	}
	since, first, changed = st.failed(SourceNetwork, t0.Add(time.Minute))
	if first || changed || !since.Equal(t0) {
		t.Errorf("the same failure again: %v %v %v", since, first, changed)
	}
	since, first, changed = st.failed(SourceAuth, t0.Add(2*time.Minute))
	if first || !changed || !since.Equal(t0) {
		t.Errorf("another reason: %v %v %v", since, first, changed)
	}
	if since, rec := st.ok(); !rec || !since.Equal(t0) {
		t.Errorf("recovery: %v %v", since, rec)
	}
	if _, rec := st.ok(); rec {
		t.Error("recovered twice")
	}
}
