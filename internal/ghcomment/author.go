package ghcomment

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// ActionsBot is the login of what the GITHUB_TOKEN of a GitHub Actions
// run writes.
const ActionsBot = "github-actions[bot]"

// author returns the login the token writes comments as, and remembers it:
//
//   - Login, when the caller set it (the token of another GitHub App
//     writes as "SLUG[bot]", which the token cannot ask for);
//   - else GET {api}/user: a personal access token's or a user's token's
//     login;
//   - else, when /user refuses an installation token (403 "Resource not
//     accessible by integration", as it does the GITHUB_TOKEN):
//     ActionsBot.
//
// Any other answer is an error: a comment is never taken for kubeplan's
// unless its author is known.
func (c *Client) author(ctx context.Context) (string, error) {
	if c.Login != "" {
		return c.Login, nil
	}
	if c.self != "" {
		return c.self, nil
	}
	var u struct {
		Login string `json:"login"`
	}
	_, err := c.do(ctx, http.MethodGet, strings.TrimSuffix(c.BaseURL, "/")+"/user", nil, &u, http.StatusOK)
	var ae *APIError
	switch {
	case err == nil && u.Login != "":
		c.self = u.Login
	case err == nil:
		return "", errors.New("GET /user: no login in the answer")
	case errors.As(err, &ae) && ae.Status == http.StatusForbidden && strings.Contains(strings.ToLower(ae.Message), "integration"):
		c.self = ActionsBot
	default:
		return "", fmt.Errorf("cannot tell which account the token writes as: %w", err)
	}
	return c.self, nil
}

// isAuthor reports whether login (a comment's or an issue's user.login)
// is the token's own; logins are compared as GitHub does, case aside.
func isAuthor(login, self string) bool { return login != "" && strings.EqualFold(login, self) }
