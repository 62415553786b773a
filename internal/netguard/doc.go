// Package netguard keeps kustomize and helm code off the network: Install
// replaces Go's default HTTP transport with one that refuses, before any
// connection, a request whose caller is kustomize or helm code (guard.go).
//
// Every package that runs that code calls Install from its init
// (manifest/kustomize, manifest/helm), so the guard holds in any binary
// that links either, installed once, before main runs. It never touches a request made by
// other code (git sources, the GitHub API, notifications), and it never
// decides how a refusal is reported: manifest/kustomize turns a Refused into
// a finding at the file that names the URL.
package netguard
