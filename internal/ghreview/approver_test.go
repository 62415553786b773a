package ghreview

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/internal/testing/githubtest"
)

const (
	repo    = "acme/deploy"
	token   = "ghs_s3cr3tT0ken"
	base    = "ba5e000000000000000000000000000000000001"
	head    = "4ead000000000000000000000000000000000002"
	oldHead = "01d0000000000000000000000000000000000003"
	merged  = "3e76000000000000000000000000000000000004"
	other   = "07e4000000000000000000000000000000000005"
)

// owners of the test repository, at the base commit.
const codeownersFile = `# default owners
*                  @platform
/apps/db/          @alice @acme/dba   # the database's
/apps/web/         @bob
/apps/cache/       @carol
/apps/db/secret/
*.md               docs@example.com
`

var (
	when   = time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC)
	now    = time.Date(2026, 12, 2, 10, 0, 0, 0, time.UTC)
	pvc    = guard.Verdict{Rule: guard.ProtectPVC, Outcome: guard.RequireApproval, Object: "persistentvolumeclaim/data", Action: "replace", Builtin: true, Files: []string{"apps/db/pvc.yaml"}}
	webPVC = guard.Verdict{Rule: guard.ProtectPVC, Outcome: guard.RequireApproval, Object: "persistentvolumeclaim/uploads", Action: "replace", Builtin: true, Files: []string{"apps/web/pvc.yaml"}}
	// A prune's file is the project's path: a directory.
	prune = guard.Verdict{Rule: guard.ProtectNamespace, Outcome: guard.RequireApproval, Object: "namespace/db", Action: "prune", Builtin: true, Files: []string{"apps/db"}}
	owned = guard.Approvals{CodeOwners: true}
)

type fixture struct {
	srv *githubtest.Server
	env map[string]string
}

// newFixture is a repository whose CODEOWNERS (at base) is codeownersFile,
// and pull request #7 by @dev, with head head, merged as merged (a squash
// or merge commit), and a push of merged to main.
func newFixture(t *testing.T) *fixture {
	t.Helper()
	srv := githubtest.New(t, repo, token)
	srv.SetFile(repo, base, ".github/CODEOWNERS", codeownersFile)
	// The pull request's own copy names someone else: never read.
	srv.SetFile(repo, head, ".github/CODEOWNERS", "* @mallory\n")
	srv.AddPull(githubtest.Pull{Number: 7, Repo: repo, Author: "dev", State: "closed", MergedAt: when, MergeCommitSHA: merged,
		HeadSHA: head, BaseSHA: base, Commits: []string{oldHead}})
	// An open pull request that contains the commit too, as GitHub lists it.
	srv.AddPull(githubtest.Pull{Number: 8, Repo: repo, Author: "dev", HeadSHA: other, BaseSHA: base, Commits: []string{merged}})
	return &fixture{srv: srv, env: map[string]string{
		"GITHUB_ACTIONS": "true", "GITHUB_EVENT_NAME": "push", "GITHUB_REPOSITORY": repo,
		"GITHUB_API_URL": srv.APIURL(), "GITHUB_SHA": merged, "GITHUB_REF": "refs/heads/main",
	}}
}

// pullRequestEvent makes the run a pull_request event of #n at sha.
func (f *fixture) pullRequestEvent(t *testing.T, n int, sha string) {
	p := filepath.Join(t.TempDir(), "event.json")
	data, _ := json.Marshal(map[string]any{"number": n, "pull_request": map[string]any{"number": n, "head": map[string]any{"sha": sha}}})
	if err := os.WriteFile(p, data, 0o644); err != nil {
		t.Fatal(err)
	}
	f.env["GITHUB_EVENT_NAME"], f.env["GITHUB_EVENT_PATH"] = "pull_request", p
	f.env["GITHUB_SHA"], f.env["GITHUB_REF"] = "a0e9000000000000000000000000000000000009", "refs/pull/7/merge"
}

func (f *fixture) approver(t *testing.T) *Approver {
	t.Helper()
	a := FromEnv(func(k string) string { return f.env[k] }, token, "test")
	if a == nil {
		t.Fatal("FromEnv = nil")
	}
	a.now = func() time.Time { return now }
	return a
}

func (f *fixture) review(login, state, commit string) {
	f.srv.AddReview(repo, 7, githubtest.Review{Login: login, State: state, CommitID: commit, SubmittedAt: when.Add(time.Hour)})
}

func byReview(rule, by, reason string) guard.Approval {
	return guard.Approval{Rule: rule, Via: "review", By: by, PullRequest: 7, At: "2026-11-30T10:00:00Z", Reason: reason}
}

func TestApprovals(t *testing.T) {
	for _, c := range []struct {
		name     string
		setup    func(t *testing.T, f *fixture)
		verdicts []guard.Verdict
		cfg      guard.Approvals
		want     []guard.Approval
		note     string // a note that says why not, when want is empty
	}{{
		name:     "code owner approves (squash merge)",
		setup:    func(t *testing.T, f *fixture) { f.review("alice", "APPROVED", head) },
		verdicts: []guard.Verdict{pvc},
		want:     []guard.Approval{byReview("protect-pvc", "@alice", "approving review by @alice, code owner of apps/db/pvc.yaml")},
	}, {
		name:     "a non-owner's approval",
		setup:    func(t *testing.T, f *fixture) { f.review("bob", "APPROVED", head) },
		verdicts: []guard.Verdict{pvc},
		note:     "no approving reviewer of pull request #7 is a code owner of apps/db/pvc.yaml (.github/CODEOWNERS)",
	}, {
		name:     "stale approval on an older commit",
		setup:    func(t *testing.T, f *fixture) { f.review("alice", "APPROVED", oldHead) },
		verdicts: []guard.Verdict{pvc},
		note:     "@alice approved commit 01d000000000 of pull request #7, not its last commit 4ead00000000",
	}, {
		name: "approval, then changes requested",
		setup: func(t *testing.T, f *fixture) {
			f.review("alice", "APPROVED", head)
			f.review("alice", "CHANGES_REQUESTED", head)
		},
		verdicts: []guard.Verdict{pvc},
		note:     "@alice's last word on pull request #7 is changes_requested",
	}, {
		name: "approval dismissed",
		setup: func(t *testing.T, f *fixture) {
			f.review("alice", "DISMISSED", head)
		},
		verdicts: []guard.Verdict{pvc},
		note:     "is dismissed",
	}, {
		name: "changes requested, then approved, then a comment",
		setup: func(t *testing.T, f *fixture) {
			f.review("alice", "CHANGES_REQUESTED", oldHead)
			f.review("alice", "APPROVED", head)
			f.review("alice", "COMMENTED", head)
		},
		verdicts: []guard.Verdict{pvc},
		want:     []guard.Approval{byReview("protect-pvc", "@alice", "approving review by @alice, code owner of apps/db/pvc.yaml")},
	}, {
		name: "the author approving their own pull request",
		setup: func(t *testing.T, f *fixture) {
			f.srv.SetFile(repo, base, ".github/CODEOWNERS", "* @dev\n")
			f.review("dev", "APPROVED", head)
		},
		verdicts: []guard.Verdict{pvc},
		note:     "@dev opened pull request #7, so their own approval does not count",
	}, {
		name:     "the pull request's own CODEOWNERS is not read",
		setup:    func(t *testing.T, f *fixture) { f.review("mallory", "APPROVED", head) },
		verdicts: []guard.Verdict{pvc},
		note:     "no approving reviewer",
	}, {
		name: "label",
		setup: func(t *testing.T, f *fixture) {
			f.srv.AddPull(githubtest.Pull{Number: 9, Repo: repo, Author: "dev", State: "closed", MergedAt: when, MergeCommitSHA: "3e76000000000000000000000000000000000009",
				HeadSHA: "4ead000000000000000000000000000000000009", BaseSHA: base, Labels: []string{"bug", "Kubeplan/Approved"}})
			f.env["GITHUB_SHA"] = "3e76000000000000000000000000000000000009"
		},
		verdicts: []guard.Verdict{pvc, prune},
		cfg:      guard.Approvals{Labels: []string{"kubeplan/approved"}},
		want: []guard.Approval{
			{Rule: "protect-pvc", Via: "label", By: "kubeplan/approved", PullRequest: 9, At: "2026-12-02T10:00:00Z", Reason: "label kubeplan/approved"},
			{Rule: "protect-namespace", Via: "label", By: "kubeplan/approved", PullRequest: 9, At: "2026-12-02T10:00:00Z", Reason: "label kubeplan/approved"},
		},
	}, {
		name:     "no label, reviews not looked at",
		setup:    func(t *testing.T, f *fixture) { f.review("alice", "APPROVED", head) },
		verdicts: []guard.Verdict{pvc},
		cfg:      guard.Approvals{Labels: []string{"kubeplan/approved"}},
		note:     "carries none of the labels that approve (kubeplan/approved)",
	}, {
		name: "rebase merge: merge_commit_sha is the last rebased commit",
		setup: func(t *testing.T, f *fixture) {
			// #12's two commits were rebased onto main as r1 and r2; GitHub
			// lists #12 for both and sets merge_commit_sha to r2.
			r1, r2 := "4eba5e0000000000000000000000000000000001", "4eba5e0000000000000000000000000000000002"
			f.srv.AddPull(githubtest.Pull{Number: 12, Repo: repo, Author: "dev", State: "closed", MergedAt: when, MergeCommitSHA: r2,
				HeadSHA: "12ead00000000000000000000000000000000012", BaseSHA: base, Commits: []string{r1, r2}})
			f.srv.AddReview(repo, 12, githubtest.Review{Login: "alice", State: "APPROVED", CommitID: "12ead00000000000000000000000000000000012", SubmittedAt: when.Add(time.Hour)})
			f.env["GITHUB_SHA"] = r2
		},
		verdicts: []guard.Verdict{pvc},
		want: []guard.Approval{{Rule: "protect-pvc", Via: "review", By: "@alice", PullRequest: 12, At: "2026-11-30T10:00:00Z",
			Reason: "approving review by @alice, code owner of apps/db/pvc.yaml"}},
	}, {
		name: "rebase merge: an earlier rebased commit is not the merge",
		setup: func(t *testing.T, f *fixture) {
			r1, r2 := "4eba5e0000000000000000000000000000000001", "4eba5e0000000000000000000000000000000002"
			f.srv.AddPull(githubtest.Pull{Number: 12, Repo: repo, Author: "dev", State: "closed", MergedAt: when, MergeCommitSHA: r2,
				HeadSHA: "12ead00000000000000000000000000000000012", BaseSHA: base, Commits: []string{r1, r2}})
			f.srv.AddReview(repo, 12, githubtest.Review{Login: "alice", State: "APPROVED", CommitID: "12ead00000000000000000000000000000000012"})
			f.env["GITHUB_SHA"] = r1
		},
		verdicts: []guard.Verdict{pvc},
		note:     "no pull request was merged as commit 4eba5e000000",
	}, {
		name: "fast-forward: the pushed commit is the pull request's head",
		setup: func(t *testing.T, f *fixture) {
			f.env["GITHUB_SHA"] = head
			f.review("alice", "APPROVED", head)
		},
		verdicts: []guard.Verdict{pvc},
		want:     []guard.Approval{byReview("protect-pvc", "@alice", "approving review by @alice, code owner of apps/db/pvc.yaml")},
	}, {
		name: "an open pull request's head pushed: not merged, no approval",
		setup: func(t *testing.T, f *fixture) {
			f.env["GITHUB_SHA"] = other
			f.srv.AddReview(repo, 8, githubtest.Review{Login: "alice", State: "APPROVED", CommitID: other})
		},
		verdicts: []guard.Verdict{pvc},
		note:     "no pull request was merged as commit 07e400000000",
	}, {
		name: "merged into another branch",
		setup: func(t *testing.T, f *fixture) {
			f.env["GITHUB_REF"] = "refs/heads/release"
			f.review("alice", "APPROVED", head)
		},
		verdicts: []guard.Verdict{pvc},
		note:     "no pull request was merged as commit 3e7600000000 (a direct push)",
	}, {
		name: "direct push",
		setup: func(t *testing.T, f *fixture) {
			f.env["GITHUB_SHA"] = "d1ec000000000000000000000000000000000006"
			f.review("alice", "APPROVED", head)
		},
		verdicts: []guard.Verdict{pvc},
		note:     "no pull request was merged as commit d1ec00000000 (a direct push)",
	}, {
		name: "team owner",
		setup: func(t *testing.T, f *fixture) {
			f.srv.SetTeam("acme/dba", map[string]string{"Dora": "active", "pete": "pending"})
			f.review("pete", "APPROVED", head)
			f.review("dora", "APPROVED", head)
		},
		verdicts: []guard.Verdict{pvc},
		want:     []guard.Approval{byReview("protect-pvc", "@dora", "approving review by @dora, code owner of apps/db/pvc.yaml")},
	}, {
		name: "team members the token may not read",
		setup: func(t *testing.T, f *fixture) {
			f.srv.SetTeam("acme/dba", map[string]string{"dora": "active"})
			f.srv.TeamsForbidden = true
			f.review("dora", "APPROVED", head)
		},
		verdicts: []guard.Verdict{pvc},
		note:     "the token may not read the members of @acme/dba",
	}, {
		name: "owners of two projects approve together",
		setup: func(t *testing.T, f *fixture) {
			f.review("bob", "APPROVED", head)
			f.review("alice", "APPROVED", head)
		},
		verdicts: []guard.Verdict{pvc, webPVC},
		want: []guard.Approval{byReview("protect-pvc", "@alice, @bob",
			"approving reviews by @alice, code owner of apps/db/pvc.yaml; @bob, code owner of apps/web/pvc.yaml")},
	}, {
		name:     "a pruned directory with an un-owned subdirectory",
		setup:    func(t *testing.T, f *fixture) { f.review("alice", "APPROVED", head) },
		verdicts: []guard.Verdict{prune},
		note:     "is a code owner of apps/db/",
	}, {
		name: "a pruned directory its owner owns whole",
		setup: func(t *testing.T, f *fixture) {
			f.srv.SetFile(repo, base, ".github/CODEOWNERS", "* @platform\n/apps/db/ @alice\n/apps/db/*.md @alice @docs\n")
			f.review("alice", "APPROVED", head)
		},
		verdicts: []guard.Verdict{prune},
		want:     []guard.Approval{byReview("protect-namespace", "@alice", "approving review by @alice, code owner of apps/db/")},
	}, {
		name: "an owner by email only approves nothing",
		setup: func(t *testing.T, f *fixture) {
			f.review("alice", "APPROVED", head)
		},
		verdicts: []guard.Verdict{{Rule: "docs", Outcome: guard.RequireApproval, Object: "configmap/readme", Action: "update", Files: []string{"apps/db/README.md"}}},
		note:     "code owner of apps/db/README.md",
	}, {
		name: "CODEOWNERS at the root",
		setup: func(t *testing.T, f *fixture) {
			f.srv.ResetFiles()
			f.srv.SetFile(repo, base, "CODEOWNERS", "/apps/ @alice\n")
			f.review("alice", "APPROVED", head)
		},
		verdicts: []guard.Verdict{pvc},
		want:     []guard.Approval{byReview("protect-pvc", "@alice", "approving review by @alice, code owner of apps/db/pvc.yaml")},
	}, {
		name: "no CODEOWNERS",
		setup: func(t *testing.T, f *fixture) {
			f.srv.ResetFiles()
			f.review("alice", "APPROVED", head)
		},
		verdicts: []guard.Verdict{pvc},
		note:     "no CODEOWNERS (.github/, the root or docs/) at the base commit ba5e00000000",
	}, {
		name: "pull request event",
		setup: func(t *testing.T, f *fixture) {
			f.srv.AddPull(githubtest.Pull{Number: 11, Repo: repo, Author: "dev", HeadSHA: head, BaseSHA: base})
			f.pullRequestEvent(t, 11, head)
			f.srv.AddReview(repo, 11, githubtest.Review{Login: "alice", State: "APPROVED", CommitID: head, SubmittedAt: when.Add(time.Hour)})
		},
		verdicts: []guard.Verdict{pvc},
		want: []guard.Approval{{Rule: "protect-pvc", Via: "review", By: "@alice", PullRequest: 11, At: "2026-11-30T10:00:00Z",
			Reason: "approving review by @alice, code owner of apps/db/pvc.yaml"}},
	}, {
		name: "pull request event, the pull request moved on",
		setup: func(t *testing.T, f *fixture) {
			f.srv.AddPull(githubtest.Pull{Number: 11, Repo: repo, Author: "dev", HeadSHA: head, BaseSHA: base})
			f.pullRequestEvent(t, 11, oldHead)
			f.srv.AddReview(repo, 11, githubtest.Review{Login: "alice", State: "APPROVED", CommitID: head})
		},
		verdicts: []guard.Verdict{pvc},
		note:     "pull request #11 moved on to 4ead00000000 since this run's commit 01d000000000",
	}, {
		name:     "approved verdicts and other outcomes ask nothing",
		verdicts: []guard.Verdict{{Rule: "x", Outcome: guard.Deny}, {Rule: "y", Outcome: guard.RequireApproval, Approval: &guard.Approval{Rule: "y", Via: "flag"}}},
	}} {
		t.Run(c.name, func(t *testing.T) {
			f := newFixture(t)
			if c.setup != nil {
				c.setup(t, f)
			}
			cfg := c.cfg
			if cfg.Labels == nil && !cfg.CodeOwners {
				cfg = owned
			}
			a := f.approver(t)
			got, err := a.Approvals(context.Background(), c.verdicts, cfg)
			if err != nil {
				t.Fatalf("Approvals: %v", err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("Approvals =\n%+v\nwant\n%+v\nnotes: %q", got, c.want, a.Notes())
			}
			if c.note != "" && !slices.ContainsFunc(a.Notes(), func(n string) bool { return strings.Contains(n, c.note) }) {
				t.Errorf("notes %q, want one with %q", a.Notes(), c.note)
			}
			for _, r := range f.srv.Calls() {
				if strings.Contains(r, "/contents/") && !strings.HasSuffix(r, "?ref="+base) {
					t.Errorf("CODEOWNERS read at another commit than the base: %s", r)
				}
			}
			if len(c.verdicts) > 0 && c.verdicts[0].Rule == "x" && len(f.srv.Calls()) > 0 {
				t.Errorf("nothing pending, yet requests: %q", f.srv.Calls())
			}
		})
	}
}
