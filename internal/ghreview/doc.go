// Package ghreview finds the GitHub approvals of a run in GitHub Actions:
// an approving review by a code owner of the files a require-approval
// verdict is about, or a label on the pull request (guard.Approvals says
// which count). kubeplan apply on merge uses them to let the verdicts of
// guard rules through; kubeplan plan on a pull request uses them to say
// "approved by @alice" already. kubeplan serve never asks it.
//
// The rules, which a reviewer of kubeplan's decisions can check:
//
//   - The pull request. On a push (the apply on merge), the one listed by
//     GET /repos/{o}/{r}/commits/{GITHUB_SHA}/pulls that is merged, into
//     the pushed branch, and whose merge_commit_sha is GITHUB_SHA (a merge,
//     squash or rebase merge) or, failing that, whose head is GITHUB_SHA
//     (a fast-forward). None is a direct push: no approval, and no error.
//     On a pull_request or pull_request_target event, the event's own,
//     read again (GET /repos/{o}/{r}/pulls/{n}) for its labels, head and
//     base; when its head is no longer the event's, it moved on, and this
//     run finds no approval (the run of the new commit will).
//   - Labels. Any label of guards.approvals.labels on the pull request
//     (case aside, as GitHub compares them) approves every pending
//     verdict: Via "label", By the label's name as kubeplan.yaml writes it.
//   - Reviews, when guards.approvals.codeOwners is true (GET
//     /repos/{o}/{r}/pulls/{n}/reviews, at most 5 pages of 100; a pull
//     request with more has none counted). A review counts when it is
//     its reviewer's latest that is APPROVED, CHANGES_REQUESTED or
//     DISMISSED (a later change request or a dismissal cancels an
//     approval; a comment changes nothing), it is APPROVED, it was given
//     on the pull request's last head commit (commit_id), and the
//     reviewer is not the pull request's author.
//   - Code owners. CODEOWNERS is read at the pull request's BASE commit
//     through the API (GET /repos/{o}/{r}/contents/{path}?ref=BASE, the
//     first of .github/CODEOWNERS, CODEOWNERS, docs/CODEOWNERS), never
//     from the checkout: a pull request can change its own copy. It is
//     read as GitHub reads it (see compilePattern and ParseCodeowners):
//     gitignore-like patterns, the last matching line wins, a line
//     without owners un-owns, a line GitHub cannot read is skipped, a file
//     over 3 MB is not used. Owners are @user, @org/team (an active member,
//     GET /orgs/{org}/teams/{slug}/memberships/{user}; a 403 or 404 is not
//     a member, with a note) or an email, which no review can match.
//   - A verdict is approved by reviews when each of its files is owned by
//     one of the reviewers that count. A file is owned by the owners of
//     the line that owns it. A directory (a pruned or released object's
//     project path, a plan rule's paths, a path ending in "/") is owned by
//     who owns everything in it: an owner of the last line that matches
//     all of it and of every later line that may match something in it.
//     A verdict without files, or with a file outside the repository, is
//     owned by nobody.
//   - One approval per rule, covering all its verdicts of the project
//     (guard.Approve applies it to each): By names the reviewers
//     ("@alice, @bob"), At the latest of their reviews, Reason what each
//     owns ("approving review by @alice, code owner of apps/db/").
//
// Everything GitHub sends is untrusted text: a login is used only when it
// is a login, and notes and errors escape what they quote. Every request
// has ghcomment's timeout, and an error names the request, never the
// token. What a run reads (the pull request, its reviews, CODEOWNERS, a
// team membership) is read once, however many projects ask. Approver.Notes
// (or Find's, when projects ask concurrently) says why an approval that
// might have counted did not, for the message of a refusal.
package ghreview
