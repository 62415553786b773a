package serve

import (
	"crypto/hmac"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
)

// The webhook providers: each has its path (/hooks/NAME), its signature
// check and its payload.
const (
	ProviderGitHub  = "github"
	ProviderGitLab  = "gitlab"
	ProviderGeneric = "generic"
)

// MaxWebhookBody bounds a webhook's body: a larger one is refused (413)
// unread.
const MaxWebhookBody = 1 << 20

// Webhook results, the result label of kubeplan_webhook_requests_total: a
// fixed set.
const (
	hookAccepted     = "accepted"     // a push of the source's branch: a run starts
	hookIgnored      = "ignored"      // signed, but another branch, a tag, another event
	hookPing         = "ping"         // GitHub's ping
	hookUnauthorized = "unauthorized" // no signature or a wrong one
	hookInvalid      = "invalid"      // signed, but not a push we can read
	hookTooLarge     = "too-large"    // over MaxWebhookBody
	hookMethod       = "bad-method"   // not a POST
	hookFailed       = "error"        // the secret could not be read
)

// WebhookResults are every value of the result label (docs/serve.md).
func WebhookResults() []string {
	return []string{hookAccepted, hookIgnored, hookPing, hookUnauthorized, hookInvalid, hookTooLarge, hookMethod, hookFailed}
}

// GenericPush is the body of a generic webhook (/hooks/generic): a JSON
// object naming the branch pushed and its commit, at least one of them.
// Ref is "refs/heads/main" or "main"; without Ref the push is taken as
// the source's branch.
type GenericPush struct {
	Ref    string `json:"ref"`
	Commit string `json:"commit"`
}

// SignatureHeader is the generic webhook's signature header, as GitHub's:
// "sha256=" and the hex HMAC-SHA256 of the body keyed with the secret.
const SignatureHeader = "X-Signature-256"

// Sign is the value of a signature header (GitHub's X-Hub-Signature-256,
// the generic X-Signature-256) for body with secret.
func Sign(secret, body []byte) string {
	mac := hmac.New(sha256.New, secret)
	mac.Write(body)
	return "sha256=" + hex.EncodeToString(mac.Sum(nil))
}

// push is what a verified webhook says was pushed: the branch ("" when it
// did not say) and the commit.
type push struct {
	branch, commit string
	// ignore, when set, is why the request is acknowledged and ignored.
	ignore string
	ping   bool
}

// hookError is a refused request: its status, its result label and what
// the answer says.
type hookError struct {
	status int
	result string
	msg    string
}

func (e *hookError) Error() string { return e.msg }

func unauthorized(msg string) *hookError {
	return &hookError{http.StatusUnauthorized, hookUnauthorized, msg}
}

func invalid(format string, args ...any) *hookError {
	return &hookError{http.StatusBadRequest, hookInvalid, fmt.Sprintf(format, args...)}
}

// checkHMAC checks a "sha256=HEX" signature of body, in constant time.
func checkHMAC(sig string, secret, body []byte, header string) *hookError {
	if sig == "" {
		return unauthorized("no " + header + " header")
	}
	if !hmac.Equal([]byte(sig), []byte(Sign(secret, body))) {
		return unauthorized(header + " does not match the body")
	}
	return nil
}

// verify checks a webhook of provider against secret and reads what it
// says was pushed. A request that is not signed right is refused before
// its body is read as JSON.
func verify(provider string, h http.Header, body, secret []byte) (push, *hookError) {
	switch provider {
	case ProviderGitHub:
		if err := checkHMAC(h.Get("X-Hub-Signature-256"), secret, body, "X-Hub-Signature-256"); err != nil {
			return push{}, err
		}
		switch ev := h.Get("X-GitHub-Event"); ev {
		case "ping":
			return push{ping: true}, nil
		case "push":
			return gitPush(body, false)
		default:
			return push{ignore: fmt.Sprintf("event %q is not a push", ev)}, nil
		}
	case ProviderGitLab:
		tok := h.Get("X-Gitlab-Token")
		if tok == "" {
			return push{}, unauthorized("no X-Gitlab-Token header")
		}
		if subtle.ConstantTimeCompare([]byte(tok), secret) != 1 {
			return push{}, unauthorized("X-Gitlab-Token is not the secret")
		}
		if ev := h.Get("X-Gitlab-Event"); ev != "Push Hook" {
			return push{ignore: fmt.Sprintf("event %q is not a Push Hook", ev)}, nil
		}
		return gitPush(body, true)
	case ProviderGeneric:
		if err := checkHMAC(h.Get(SignatureHeader), secret, body, SignatureHeader); err != nil {
			return push{}, err
		}
		var g GenericPush
		if err := json.Unmarshal(body, &g); err != nil {
			return push{}, invalid("the body is not a JSON object {\"ref\": ..., \"commit\": ...}: %v", err)
		}
		if g.Ref == "" && g.Commit == "" {
			return push{}, invalid("the body names neither ref nor commit")
		}
		if g.Ref != "" && !strings.HasPrefix(g.Ref, "refs/") {
			g.Ref = "refs/heads/" + g.Ref
		}
		return refPush(g.Ref, g.Commit), nil
	}
	return push{}, &hookError{http.StatusNotFound, hookInvalid, "no webhook provider " + provider}
}

// gitPush reads a GitHub or GitLab push event's ref and commit.
func gitPush(body []byte, gitlab bool) (push, *hookError) {
	var p struct {
		Ref         string `json:"ref"`
		After       string `json:"after"`
		CheckoutSHA string `json:"checkout_sha"`
		Deleted     bool   `json:"deleted"`
	}
	if err := json.Unmarshal(body, &p); err != nil {
		return push{}, invalid("the body is not a push event: %v", err)
	}
	if p.Ref == "" {
		return push{}, invalid("the push event names no ref")
	}
	if gitlab && p.CheckoutSHA != "" {
		p.After = p.CheckoutSHA
	}
	if p.Deleted || strings.Trim(p.After, "0") == "" && p.After != "" {
		return push{ignore: "the push deletes " + p.Ref}, nil
	}
	return refPush(p.Ref, p.After), nil
}

// refPush is a push of ref: a branch's, or ignored (a tag).
func refPush(ref, commit string) push {
	if ref == "" {
		return push{commit: commit}
	}
	branch, ok := strings.CutPrefix(ref, "refs/heads/")
	if !ok {
		return push{ignore: ref + " is not a branch"}
	}
	return push{branch: branch, commit: commit}
}
