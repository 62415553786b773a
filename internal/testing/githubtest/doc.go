// Package githubtest is a local stand-in for the part of the GitHub REST
// API kubeplan uses: listing, creating and editing issue comments (each
// with its author, so comments by other accounts can be planted), GET /user
// (as a personal access token or the GITHUB_TOKEN gets it), setting
// commit statuses, listing, opening and closing issues, and what finding
// the approvals of a pull request reads (pulls.go): the pull requests of a
// commit, one pull request, its reviews (paginated), a file's contents at
// a ref (and its blob, for a file over 1 MB) and team memberships. It
// keeps them in memory, answers with the JSON, status codes, error
// messages and Link pagination headers GitHub sends, refuses requests
// without the right token or a User-Agent like GitHub does, and records
// every request so tests can assert exactly what a client did; FailNext
// makes it answer with server errors for a while, as GitHub sometimes
// does. RunnerCommands reads a step's log as the Actions runner does and
// returns the lines it would run as workflow commands. Only tests import
// it.
package githubtest
