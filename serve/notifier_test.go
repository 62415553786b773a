package serve

import (
	"context"
	"errors"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/kubeplan/kubeplan/notify"
	"github.com/kubeplan/kubeplan/render"
)

// Without a webhook or a repository there is no notifier; a repository
// needs a readable token file.
func TestNotifierSettings(t *testing.T) {
	if n, err := (NotifyOptions{Format: "json"}).Notifier(render.NotifyWords{}, "", nil); n != nil || err != nil {
		t.Errorf("nothing asked: %v %v", n, err)
	}
	_, err := (NotifyOptions{GitHubRepository: "acme/deploy"}).Notifier(render.NotifyWords{}, "", nil)
	if err == nil || err.Error() != "--github-repository needs --github-token-file" {
		t.Errorf("no token file: %v", err)
	}
	_, err = (NotifyOptions{GitHubRepository: "acme/deploy", GitHubTokenFile: filepath.Join(t.TempDir(), "missing")}).Notifier(render.NotifyWords{}, "", nil)
	if !errors.Is(err, fs.ErrNotExist) || !strings.HasPrefix(err.Error(), "--github-token-file: ") {
		t.Errorf("missing token file: %v", err)
	}
	boom := errors.New("no pod namespace")
	_, err = (NotifyOptions{Webhook: "http://127.0.0.1:1/hook"}).Notifier(render.NotifyWords{}, "", func() (notify.State, error) { return nil, boom })
	if !errors.Is(err, boom) {
		t.Errorf("state error: %v", err)
	}
}

// The notifier posts a failed run to the webhook and a commit status to
// the GitHub API given, with the token file's token (its newline trimmed).
func TestNotifierSends(t *testing.T) {
	var mu sync.Mutex
	var hooks int
	var auth []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		defer mu.Unlock()
		if r.URL.Path == "/hook" {
			hooks++
		} else {
			auth = append(auth, r.Header.Get("Authorization"))
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = w.Write([]byte("{}"))
	}))
	defer srv.Close()
	tokenFile := filepath.Join(t.TempDir(), "token")
	if err := os.WriteFile(tokenFile, []byte("s3cret-token\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	o := NotifyOptions{Webhook: srv.URL + "/hook", Format: "json", GitHubRepository: "acme/deploy", GitHubTokenFile: tokenFile}
	n, err := o.Notifier(render.NotifyWords{}, srv.URL, nil)
	if err != nil || n == nil {
		t.Fatalf("notifier: %v", err)
	}
	if err := n.Observe(context.Background(), notify.Run{Project: "shop", Revision: "0123456789abcdef0123456789abcdef01234567", Err: errors.New("boom")}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if hooks != 1 {
		t.Errorf("webhook posts: %d, want 1", hooks)
	}
	if len(auth) == 0 {
		t.Fatal("nothing reached the GitHub API")
	}
	for _, a := range auth {
		if !strings.HasSuffix(a, " s3cret-token") {
			t.Errorf("Authorization %q: want the trimmed token", a)
		}
	}
}

// Notifications sets OnRun only when something is to be told: a failed
// run reaches the webhook, and a notification that cannot be sent is a
// line on the log.
func TestNotifications(t *testing.T) {
	o := Options{Notify: NotifyOptions{Format: "json"}}
	if err := o.Notifications(render.NotifyWords{}, "", nil); err != nil || o.OnRun != nil {
		t.Errorf("nothing asked: OnRun set %v, %v", o.OnRun != nil, err)
	}
	o = Options{Notify: NotifyOptions{GitHubRepository: "acme/deploy"}}
	if err := o.Notifications(render.NotifyWords{}, "", nil); err == nil || o.OnRun != nil {
		t.Errorf("no token file: OnRun set %v, %v", o.OnRun != nil, err)
	}
	var mu sync.Mutex
	hooks := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		hooks++
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	defer srv.Close()
	var log strings.Builder
	o = Options{Notify: NotifyOptions{Webhook: srv.URL + "/hook", Format: "json"}, Log: &log}
	if err := o.Notifications(render.NotifyWords{}, "", nil); err != nil || o.OnRun == nil {
		t.Fatalf("webhook: OnRun set %v, %v", o.OnRun != nil, err)
	}
	o.OnRun(t.Context(), RunResult{Project: "shop", Revision: "0123456789abcdef0123456789abcdef01234567", Err: errors.New("boom")})
	mu.Lock()
	if hooks != 1 || log.Len() != 0 {
		t.Errorf("webhook posts %d, log %q", hooks, log.String())
	}
	mu.Unlock()
	srv.Close()
	o.OnRun(t.Context(), RunResult{Project: "shop", Revision: "0123456789abcdef0123456789abcdef01234567"})
	if !strings.HasPrefix(log.String(), "kubeplan serve: shop: notification: ") {
		t.Errorf("log %q: want the notification that could not be sent", log.String())
	}
}
