// Package githubtest is a local stand-in for the part of the GitHub REST
// API kubeplan uses: listing, creating and editing issue comments. It keeps
// comments in memory, answers with the JSON, status codes, error messages
// and Link pagination headers GitHub sends, refuses requests without the
// right token or a User-Agent like GitHub does, and records every request
// so tests can assert exactly what a client did. Only tests import it.
package githubtest
