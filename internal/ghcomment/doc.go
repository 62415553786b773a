// Package ghcomment keeps one "sticky" pull-request comment up to date
// through the GitHub REST API: the first run creates it, later runs edit
// the same comment instead of adding new ones.
//
// A comment is recognised by a hidden marker on its first line, an HTML
// comment that names what it is about:
//
//	<!-- kubeplan:plan cluster=prod namespace=store applyset=configmap/gitops-applyset -->
//	<!-- kubeplan:plan scope=acme/shop:kubeplan.yaml -->
//
// so several plans in one pull request (one per cluster, namespace and
// ApplySet, or one per run over many projects) each keep their own
// comment. A comment is kubeplan's only when it carries the marker AND was
// written by the account the token writes as (Client.Login, else GET /user,
// else github-actions[bot] for the GITHUB_TOKEN, which /user refuses):
// anyone can paste the marker, and such a comment is never edited nor
// taken for the plan. The requests are the documented ones:
//
//	GET   {api}/repos/{owner}/{repo}/issues/{number}/comments?per_page=100   (following Link: rel="next")
//	GET   {api}/user   (once, when a comment carries the marker and Login is not set)
//	POST  {api}/repos/{owner}/{repo}/issues/{number}/comments
//	PATCH {api}/repos/{owner}/{repo}/issues/comments/{id}
//
// The same client sets commit statuses and opens, finds and closes issues
// (status.go, issues.go), for kubeplan serve's notifications (package notify):
//
//	POST  {api}/repos/{owner}/{repo}/statuses/{sha}
//	GET   {api}/repos/{owner}/{repo}/issues?state=open&labels=LABEL&...  (following Link: rel="next")
//	POST  {api}/repos/{owner}/{repo}/issues
//	PATCH {api}/repos/{owner}/{repo}/issues/{number}
//
// All requests go with "Authorization: Bearer TOKEN", "Accept: application/vnd.github+json"
// and "X-GitHub-Api-Version: 2022-11-28". {api} is $GITHUB_API_URL, so
// GitHub Enterprise Server works too. The token is sent only to that host
// and never appears in an error.
package ghcomment
