package ghreview

import (
	"context"
	"path"
	"slices"
	"strings"
	"time"

	"github.com/kubeplan/kubeplan/internal/guard"
)

// target is one of a verdict's files: a file, or a directory (a pruned or
// released object's project path, a plan rule's project paths).
type target struct {
	path string // cleaned, relative to the repository's root
	dir  bool
}

// String is the path as a message shows it: a directory ends in "/".
func (t target) String() string {
	if t.dir {
		if t.path == "." {
			return "the repository's root/"
		}
		return t.path + "/"
	}
	return t.path
}

// targets are the files and directories of a rule's verdicts, each once.
// A file of a prune or a release, of a plan rule (no object), or ending
// in "/", is a directory. ok is false when a verdict has none, or one is
// outside the repository: nobody owns those.
func targets(vs []guard.Verdict) (out []target, ok bool) {
	seen := map[target]bool{}
	for _, v := range vs {
		if len(v.Files) == 0 {
			return nil, false
		}
		for _, f := range v.Files {
			dir := strings.HasSuffix(f, "/") || v.Object == "" || v.Action == "prune" || v.Action == "release"
			p := path.Clean(strings.TrimPrefix(f, "/"))
			if p == ".." || strings.HasPrefix(p, "../") {
				return nil, false
			}
			t := target{path: p, dir: dir || p == "."}
			if !seen[t] {
				seen[t] = true
				out = append(out, t)
			}
		}
	}
	return out, true
}

// owns reports whether login owns t under co: it is an owner of the rule
// that owns a file; of every rule that owns something in a directory.
// A rule without user or team owners (emails only, or none) owns for
// nobody.
func (a *call) owns(ctx context.Context, co *Codeowners, t target, login string) (bool, error) {
	var rules owners
	if t.dir {
		rules = co.dirOwners(t.path)
	} else if r := co.FileOwners(t.path); r != nil {
		rules = owners{r}
	}
	if len(rules) == 0 {
		return false, nil
	}
	for _, r := range rules {
		ok, err := a.isOwner(ctx, r, login)
		if err != nil || !ok {
			return false, err
		}
	}
	return true, nil
}

// isOwner reports whether login is one of r's owners: named, or an
// active member of a team named.
func (a *call) isOwner(ctx context.Context, r *Rule, login string) (bool, error) {
	if slices.Contains(r.Users, login) {
		return true, nil
	}
	for _, team := range r.Teams {
		ok, err := a.inTeam(ctx, team, login)
		if err != nil || ok {
			return ok, err
		}
	}
	return false, nil
}

// byReviews returns the approval of rule r by the approving reviews revs,
// or nil: every file and directory of every verdict of r must be owned by
// one of the reviewers (the first, in review order, who owns it is named).
func (a *call) byReviews(ctx context.Context, co *Codeowners, r ruleVerdicts, revs []approval, pr *pull) (*guard.Approval, error) {
	ts, ok := targets(r.verdicts)
	if !ok {
		a.note("rule %s: a verdict names no file in the repository, so no code owner can approve it", r.name)
		return nil, nil
	}
	var by []approval
	owned := map[string][]target{}
	for _, t := range ts {
		found := false
		for _, rev := range revs {
			ok, err := a.owns(ctx, co, t, rev.login)
			if err != nil {
				return nil, err
			}
			if ok {
				if owned[rev.login] == nil {
					by = append(by, rev)
				}
				owned[rev.login] = append(owned[rev.login], t)
				found = true
				break
			}
		}
		if !found {
			a.note("rule %s: no approving reviewer of pull request #%d is a code owner of %s (%s)", r.name, pr.Number, t, co.Path)
			return nil, nil
		}
	}
	var names, parts []string
	var at time.Time
	for _, rev := range by {
		names = append(names, "@"+rev.name)
		parts = append(parts, "@"+rev.name+", code owner of "+list(owned[rev.login]))
		if rev.at.After(at) {
			at = rev.at
		}
	}
	reason := "approving review by " + parts[0]
	if len(parts) > 1 {
		reason = "approving reviews by " + strings.Join(parts, "; ")
	}
	return &guard.Approval{Rule: r.name, Via: "review", By: strings.Join(names, ", "), PullRequest: pr.Number,
		At: at.Format(time.RFC3339), Reason: printable(reason)}, nil
}

// list names up to three targets, then how many more.
func list(ts []target) string {
	var s []string
	for i, t := range ts {
		if i == 3 {
			s = append(s, "and "+itoa(len(ts)-3)+" more")
			break
		}
		s = append(s, t.String())
	}
	return strings.Join(s, ", ")
}
