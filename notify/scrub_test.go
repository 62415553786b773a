package notify_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	. "github.com/kubeplan/kubeplan/notify"
)

func TestScrub(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`Get "https://10.0.0.1:6443/api": Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2lnbmF0dXJl`, `Get "https://10.0.0.1:6443/api": Authorization: Bearer ***`},
		{`header authorization=Basic dXNlcjpwYXNzd29yZA==`, `header authorization=Basic ***`},
		{`proxy-authorization: xyzzy123`, `proxy-authorization: ***`},
		{`bearer abcdefghijkl0123`, `bearer ***`},
		{`git fetch https://x-access-token:ghs_0123456789abcdefghijABCDEFGHIJ@github.com/acme/shop.git: 403`, `git fetch https://x-access-token:***@github.com/acme/shop.git: 403`},
		{`clone ssh://git:hunter2@git.example:22/repo failed`, `clone ssh://git:***@git.example:22/repo failed`},
		{`kubeconfig user: token: sha256~0123456789abcdef`, `kubeconfig user: token: ***`},
		{`client-key-data: LS0tLS1CRUdJTg==`, `client-key-data: ***`},
		{`GET /x?access_token=abc123&page=2`, `GET /x?access_token=***&page=2`},
		{`{"password":"s3cret","user":"bob"}`, `{"password":"***","user":"bob"}`},
		{`AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG`, `AWS_SECRET_ACCESS_KEY=***`},
		{`leaked ghp_0123456789abcdefghijABCDEFGHIJ in a message`, `leaked *** in a message`},
		{`github_pat_11ABCDEFG0123456789_abcdefghijklmnopqrstuvwxyz here`, `*** here`},
		{"-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----", "***"},
		{`post https://hooks.slack.com/services/T0/B0/XYZ failed`, `post *** failed`},
		// Ordinary words stay.
		{`the token was refused: check --github-token-file`, `the token was refused: check --github-token-file`},
		{`secret "db" not found`, `secret "db" not found`},
		{`deployment.apps/web: 0/3 available: ImagePullBackOff`, `deployment.apps/web: 0/3 available: ImagePullBackOff`},
	} {
		if got := Scrub(tc.in); got != tc.want {
			t.Errorf("Scrub(%q)\n got %q\nwant %q", tc.in, got, tc.want)
		}
		if got := Scrub(tc.want); got != tc.want {
			t.Errorf("Scrub is not idempotent on %q: %q", tc.want, got)
		}
	}
}

// TestNoSecretInAnyOutput fails a run with an error holding credentials,
// and the notifier's own secrets, and looks for them in everything sent:
// each webhook format, the commit status, the drift issue and the error
// Observe returns.
func TestNoSecretInAnyOutput(t *testing.T) {
	secrets := []string{"sha256~kubeconfigtoken", "hunter2", "gh-test-token-123", "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln"}
	runErr := errors.New("apply: token: sha256~kubeconfigtoken; git https://bot:hunter2@git.example/r.git; " +
		"echo of our own token gh-test-token-123; Authorization: Bearer eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln")
	for _, format := range Formats {
		h := newHook(t, 400) // refused, so the returned error is looked at too
		gh := newGitHub(t)
		gh.FailNext(422) // and a GitHub error
		n := newNotifier(t, Config{Webhook: h.URL + "/hook", Format: format, GitHubRepository: repo, GitHubToken: ghToken, GitHubAPI: gh.APIURL()})
		r := run(0, "0123456789abcdef0123456789abcdef01234567", runErr)
		r.Scheduled = true
		obsErr := n.Observe(context.Background(), r)
		if obsErr == nil {
			t.Fatalf("%s: want the refusals reported", format)
		}
		observe(t, n, run(1, "0123456789abcdef0123456789abcdef01234567", runErr))
		var sent []string
		sent = append(sent, h.received()...)
		for _, req := range gh.Requests() {
			sent = append(sent, req.Body)
		}
		sent = append(sent, obsErr.Error())
		if len(h.received()) != 2 || len(gh.Issues(repo)) != 1 || len(gh.AllStatuses()) != 1 {
			t.Fatalf("%s: %d webhook requests, %d issues, %d statuses: want 2, 1, 1", format, len(h.received()), len(gh.Issues(repo)), len(gh.AllStatuses()))
		}
		for _, s := range sent {
			for _, sec := range append(secrets, h.URL) {
				if strings.Contains(s, sec) {
					t.Errorf("%s: %q sent in %s", format, sec, s)
				}
			}
		}
	}
}
