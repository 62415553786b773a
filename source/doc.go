// Package source owns everything kubeplan does with git: a branch of a
// repository kept in a local clone that every Sync fetches and hard-resets
// to the remote (Git, with its URL forms, authentication from the URL, the
// SSH agent, default keys or files a Secret mounts, the clone cache and its
// lock), the Revision a checkout holds, the revision of a local work tree
// (LocalRevision, "+dirty" when tracked files changed) and the paths that
// changed since a revision (ChangedPaths).
//
// It never reads manifests and never writes outside its cache directory.
// It runs no git binary itself (go-git does, git-upload-pack, for a
// repository on the local disk). Credentials never appear in a message and
// are never written to a clone's config; nothing is fetched except the
// repository a Git names.
package source
