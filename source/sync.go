package source

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/url"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"

	git "github.com/go-git/go-git/v5"
	"github.com/go-git/go-git/v5/config"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/filemode"
	"github.com/go-git/go-git/v5/plumbing/object"
	"github.com/go-git/go-git/v5/plumbing/transport"
	githttp "github.com/go-git/go-git/v5/plumbing/transport/http"
	gitssh "github.com/go-git/go-git/v5/plumbing/transport/ssh"
	"github.com/go-git/go-git/v5/storage/memory"
)

// Git is a branch of a git repository to read manifests from, kept in
// a local clone that every Sync fetches and hard-resets to the remote branch.
type Git struct {
	// URL is a local path, file://, https://, http://, git://, ssh:// or
	// scp-like (git@host:org/repo.git) address. Credentials embedded in an
	// http(s) URL are used as basic auth, never written to the clone's
	// config and never shown in errors.
	URL string
	// Ref is the branch to follow ("main" or "refs/heads/main"). Empty means
	// the remote's HEAD branch, or "main" when the remote does not say.
	Ref string
	// Path is the directory (or file) inside the repository to read; empty
	// means the root. It must exist and stay inside the checkout.
	Path string
	// CacheDir is where clones live. Default <cache>/kubeplan/git, where
	// <cache> is KUBEPLAN_CACHE_DIR, else os.UserCacheDir(), else a private
	// directory under os.TempDir().
	CacheDir string
	// Auth overrides authentication. Nil means: credentials from the URL
	// for http(s) (else anonymous); for ssh the SSH agent when
	// SSH_AUTH_SOCK is set, else the first unencrypted key among
	// ~/.ssh/id_ed25519, id_ecdsa, id_rsa.
	Auth transport.AuthMethod
	// Files, when Auth is nil, are credentials read from files at every
	// Sync (a token for https, a deploy key and known_hosts for ssh).
	Files AuthFiles
}

// Revision is the commit a Sync checked out.
type Revision struct {
	SHA      string    // full commit hash
	ShortSHA string    // first 7 hex digits
	Subject  string    // first line of the commit message
	Author   string    // "Name <email>"
	Time     time.Time // committer time of the commit
	// Dir is the absolute path of Git.Path inside the checkout.
	// Its content stays as Sync left it until the next Sync of the same URL
	// and branch (by any process) resets it.
	Dir string
	// Root is the absolute path of the checkout: the repository's root,
	// Dir without Git.Path. Dir and Root are set by Sync only.
	Root string
}

// shortSHALen is the length of Revision.ShortSHA.
const shortSHALen = 7

// Sync brings the cached clone of g.URL to the tip of the remote branch
// g.Ref (cloning it on first use) and returns the commit it now holds. The
// work tree then equals the commit exactly: local changes, untracked and
// ignored files are removed, so files deleted upstream disappear. Syncs of
// the same URL and branch are serialized across processes by a file lock.
func (g Git) Sync(ctx context.Context) (Revision, error) {
	src, err := parseGitURL(g.URL)
	if err != nil {
		return Revision{}, err
	}
	auth := g.Auth
	switch {
	case auth == nil && g.Files.set():
		if auth, err = g.Files.auth(src); err != nil {
			return Revision{}, src.errorf(g.Ref, "%v", err)
		}
	case auth == nil:
		if auth, err = src.defaultAuth(); err != nil {
			return Revision{}, src.errorf(g.Ref, "%v", err)
		}
	}
	sub, err := cleanSubPath(g.Path)
	if err != nil {
		return Revision{}, src.errorf(g.Ref, "%v", err)
	}

	branch := strings.TrimPrefix(g.Ref, "refs/heads/")
	if branch == "" {
		if branch, err = src.headBranch(ctx, auth); err != nil {
			return Revision{}, err
		}
	}
	if !plumbing.NewBranchReferenceName(branch).IsBranch() || strings.ContainsAny(branch, " ~^:?*[\\") {
		return Revision{}, src.errorf(branch, "invalid branch name %q", branch)
	}

	base := g.CacheDir
	if base == "" {
		b, err := gitCacheBase()
		if err != nil {
			return Revision{}, src.errorf(branch, "%v", err)
		}
		base = filepath.Join(b, "kubeplan", "git")
	}
	if base, err = filepath.Abs(base); err != nil {
		return Revision{}, src.errorf(branch, "cache directory: %v", err)
	}
	if err := os.MkdirAll(base, 0o755); err != nil {
		return Revision{}, src.errorf(branch, "cache directory: %v", err)
	}
	sum := sha256.Sum256([]byte(src.key + "\x00" + branch))
	dir := filepath.Join(base, hex.EncodeToString(sum[:12]))

	unlock, err := lockFile(ctx, dir+".lock")
	if err != nil {
		return Revision{}, src.errorf(branch, "waiting for the lock on %s: %v", dir, err)
	}
	defer unlock()

	rev, err := src.syncLocked(ctx, dir, branch, auth)
	if err != nil {
		return Revision{}, err
	}
	rev.Dir, err = checkoutPath(dir, sub)
	if err != nil {
		return Revision{}, src.errorf(branch, "%v", err)
	}
	rev.Root = dir
	return rev, nil
}

// syncLocked does the work of Sync while holding the lock on dir.
func (s *gitURL) syncLocked(ctx context.Context, dir, branch string, auth transport.AuthMethod) (Revision, error) {
	removeStaleCloneTemps(dir)
	repo, err := git.PlainOpen(dir)
	if err == nil {
		rev, err, local := s.update(ctx, repo, branch, auth, true)
		if err == nil || !local {
			return rev, err
		}
		// The clone is damaged (an interrupted write, someone editing the
		// cache): start over from a fresh clone.
	} else if _, statErr := os.Lstat(dir); statErr != nil && !errors.Is(statErr, fs.ErrNotExist) {
		return Revision{}, s.errorf(branch, "cache: %v", statErr)
	}
	if err := os.RemoveAll(dir); err != nil {
		return Revision{}, s.errorf(branch, "cache: %v", err)
	}
	if err := s.clone(ctx, dir, branch, auth); err != nil {
		return Revision{}, err
	}
	repo, err = git.PlainOpen(dir)
	if err != nil {
		return Revision{}, s.errorf(branch, "opening the new clone: %v", err)
	}
	rev, err, _ := s.update(ctx, repo, branch, auth, false)
	return rev, err
}

// clone makes a fresh single-branch clone in a temporary sibling of dir and
// renames it into place, so an interrupted clone never looks complete.
func (s *gitURL) clone(ctx context.Context, dir, branch string, auth transport.AuthMethod) error {
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return s.errorf(branch, "cache: %v", err)
	}
	defer os.RemoveAll(tmp) // nothing left after a successful rename
	_, err = git.PlainCloneContext(ctx, tmp, false, &git.CloneOptions{
		URL:           s.remote,
		Auth:          auth,
		ReferenceName: plumbing.NewBranchReferenceName(branch),
		SingleBranch:  true,
		NoCheckout:    true, // update checks out in the final place
		Tags:          git.NoTags,
	})
	if err != nil {
		return s.remoteError(ctx, branch, auth, "clone", err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		return s.errorf(branch, "cache: %v", err)
	}
	return nil
}

// update fetches branch into repo (when fetch is set: not right after a
// clone) and resets the work tree to it. local reports whether a failure came
// from the clone on disk rather than from the remote.
func (s *gitURL) update(ctx context.Context, repo *git.Repository, branch string, auth transport.AuthMethod, fetch bool) (rev Revision, err error, local bool) {
	remoteRef := plumbing.NewRemoteReferenceName(git.DefaultRemoteName, branch)
	if fetch {
		if err := s.ensureRemote(repo); err != nil {
			return Revision{}, s.errorf(branch, "cache: %v", err), true
		}
		err := repo.FetchContext(ctx, &git.FetchOptions{
			RemoteName: git.DefaultRemoteName,
			RefSpecs:   []config.RefSpec{config.RefSpec("+" + plumbing.NewBranchReferenceName(branch) + ":" + remoteRef)},
			Auth:       auth,
			Tags:       git.NoTags,
			Force:      true,
			Prune:      true,
		})
		if err != nil && !errors.Is(err, git.NoErrAlreadyUpToDate) {
			return Revision{}, s.remoteError(ctx, branch, auth, "fetch", err), false
		}
	}
	localErr := func(what string, err error) (Revision, error, bool) {
		return Revision{}, s.errorf(branch, "cache: %s: %v", what, err), true
	}
	ref, err := repo.Reference(remoteRef, true)
	if err != nil {
		return localErr("resolving "+remoteRef.String(), err)
	}
	commit, err := repo.CommitObject(ref.Hash())
	if err != nil {
		return localErr("reading commit "+ref.Hash().String(), err)
	}
	tree, err := commit.Tree()
	if err != nil {
		return localErr("reading tree", err)
	}
	wt, err := repo.Worktree()
	if err != nil {
		return localErr("work tree", err)
	}
	if err := wt.Reset(&git.ResetOptions{Commit: commit.Hash, Mode: git.HardReset}); err != nil {
		return localErr("reset --hard "+commit.Hash.String(), err)
	}
	if err := cleanWorktree(wt.Filesystem.Root(), tree); err != nil {
		return localErr("clean", err)
	}
	return revisionOf(commit), nil, false
}

// ensureRemote points origin at s.remote (the URL without credentials).
func (s *gitURL) ensureRemote(repo *git.Repository) error {
	cfg, err := repo.Config()
	if err != nil {
		return err
	}
	rc, ok := cfg.Remotes[git.DefaultRemoteName]
	if ok && len(rc.URLs) == 1 && rc.URLs[0] == s.remote {
		return nil
	}
	if !ok {
		rc = &config.RemoteConfig{Name: git.DefaultRemoteName}
		cfg.Remotes[git.DefaultRemoteName] = rc
	}
	rc.URLs = []string{s.remote}
	if len(rc.Fetch) == 0 {
		rc.Fetch = []config.RefSpec{config.RefSpec(fmt.Sprintf(config.DefaultFetchRefSpec, git.DefaultRemoteName))}
	}
	return repo.SetConfig(cfg)
}

func revisionOf(c *object.Commit) Revision {
	subject, _, _ := strings.Cut(strings.TrimLeft(c.Message, "\r\n"), "\n")
	sha := c.Hash.String()
	return Revision{
		SHA:      sha,
		ShortSHA: sha[:shortSHALen],
		Subject:  strings.TrimSpace(subject),
		Author:   fmt.Sprintf("%s <%s>", c.Author.Name, c.Author.Email),
		Time:     c.Committer.When,
	}
}

// cleanWorktree removes everything under root (except .git) that tree does
// not hold: untracked and ignored files alike, like `git clean -ffdx`.
func cleanWorktree(root string, tree *object.Tree) error {
	files := map[string]bool{}
	dirs := map[string]bool{}
	w := object.NewTreeWalker(tree, true, nil)
	defer w.Close()
	for {
		name, e, err := w.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return err
		}
		if e.Mode == filemode.Dir || e.Mode == filemode.Submodule {
			dirs[name] = true
		} else {
			files[name] = true
		}
	}
	return filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == root {
			return nil
		}
		rel, err := filepath.Rel(root, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		if rel == git.GitDirName {
			return filepath.SkipDir
		}
		if d.IsDir() {
			if dirs[rel] {
				return nil
			}
			if err := os.RemoveAll(p); err != nil {
				return err
			}
			return filepath.SkipDir
		}
		if !files[rel] {
			return os.Remove(p)
		}
		return nil
	})
}

// cleanSubPath validates Git.Path lexically and returns it cleaned, in
// slash form ("" for the root).
func cleanSubPath(p string) (string, error) {
	if p == "" {
		return "", nil
	}
	s := filepath.ToSlash(p)
	if path.IsAbs(s) || filepath.IsAbs(p) || filepath.VolumeName(p) != "" {
		return "", fmt.Errorf("path %q must be relative to the repository root", p)
	}
	for _, el := range strings.Split(s, "/") {
		if el == ".." {
			return "", fmt.Errorf("path %q escapes the repository (\"..\" is not allowed)", p)
		}
	}
	c := path.Clean(s)
	if c == "." {
		return "", nil
	}
	if first, _, _ := strings.Cut(c, "/"); first == git.GitDirName {
		return "", fmt.Errorf("path %q points into the .git directory", p)
	}
	return c, nil
}

// checkoutPath joins sub to the checkout root and makes sure it exists and,
// after resolving symbolic links, is still inside the checkout.
func checkoutPath(root, sub string) (string, error) {
	full := filepath.Join(root, filepath.FromSlash(sub))
	realRoot, err := filepath.EvalSymlinks(root)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(full)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return "", fmt.Errorf("path %q does not exist in the repository", sub)
		}
		return "", fmt.Errorf("path %q: %v", sub, err)
	}
	rel, err := filepath.Rel(realRoot, real)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) || filepath.IsAbs(rel) {
		return "", fmt.Errorf("path %q escapes the repository through a symbolic link", sub)
	}
	if first, _, _ := strings.Cut(filepath.ToSlash(rel), "/"); first == git.GitDirName {
		return "", fmt.Errorf("path %q points into the .git directory", sub)
	}
	return full, nil
}

// removeStaleCloneTemps removes temporary clones left by an interrupted
// Sync. Only the holder of dir's lock creates them, so all are stale.
func removeStaleCloneTemps(dir string) {
	matches, _ := filepath.Glob(dir + ".tmp-*")
	for _, m := range matches {
		os.RemoveAll(m)
	}
}

// gitURL is a parsed Git.URL.
type gitURL struct {
	remote  string   // what go-git is given: the URL without credentials
	display string   // for messages: credentials redacted
	key     string   // normalized, identifies the cache directory
	secrets []string // strings that must never appear in a message
	proto   string   // file, http, https, ssh, git
	user    string   // ssh user
	pass    string   // password from the URL
	http    *githttp.BasicAuth
}

func parseGitURL(raw string) (*gitURL, error) {
	if strings.TrimSpace(raw) == "" {
		return nil, errors.New("git source: no URL given")
	}
	s := &gitURL{}
	if i := strings.Index(raw, "://"); i > 0 && !strings.ContainsAny(raw[:i], "/\\") {
		u, err := url.Parse(raw)
		if err != nil {
			// url.Parse quotes the input: keep credentials out of it.
			return nil, fmt.Errorf("git source %s: invalid URL", redactRaw(raw))
		}
		s.proto = strings.ToLower(u.Scheme)
		if u.User != nil {
			s.user = u.User.Username()
			s.pass, _ = u.User.Password()
			s.secrets = append(s.secrets, u.User.String())
			if s.pass != "" {
				s.secrets = append(s.secrets, s.pass)
			}
		}
		switch s.proto {
		case "file":
			if u.Host != "" && u.Host != "localhost" {
				return nil, fmt.Errorf("git source %s: file URLs must not name a host", redactRaw(raw))
			}
			p, err := filepath.Abs(filepath.FromSlash(u.Path))
			if err != nil {
				return nil, fmt.Errorf("git source %s: %v", raw, err)
			}
			s.remote, s.display, s.key = p, "file://"+filepath.ToSlash(p), "file://"+filepath.ToSlash(p)
			return s, nil
		case "http", "https", "git":
			if s.user != "" || s.pass != "" {
				// A lone user name in an https URL is usually a token.
				s.secrets = append(s.secrets, s.user)
				if s.proto != "git" {
					s.http = &githttp.BasicAuth{Username: s.user, Password: s.pass}
				}
			}
			shown := *u
			if u.User != nil {
				shown.User = url.User("***")
			}
			u.User = nil
			s.remote = u.String()
			s.display = strings.Replace(shown.String(), "%2A%2A%2A@", "***@", 1)
		case "ssh", "git+ssh", "ssh+git":
			s.proto = "ssh"
			shown := *u
			if s.pass != "" {
				shown.User = url.UserPassword(s.user, "***")
			}
			if s.user != "" {
				u.User = url.User(s.user)
			}
			s.remote = u.String()
			s.display = strings.Replace(shown.String(), ":%2A%2A%2A@", ":***@", 1)
		default:
			return nil, fmt.Errorf("git source %s: unsupported URL scheme %q (use a path, file://, https://, ssh:// or git@host:path)", redactRaw(raw), u.Scheme)
		}
		host := strings.ToLower(u.Hostname())
		if port := u.Port(); port != "" && !(port == "443" && s.proto == "https" || port == "80" && s.proto == "http" || port == "22" && s.proto == "ssh") {
			host += ":" + port
		}
		userPart := ""
		if s.proto == "ssh" && s.user != "" {
			userPart = s.user + "@"
		}
		s.key = s.proto + "://" + userPart + host + normalizeRepoPath(u.Path)
		return s, nil
	}

	ep, err := transport.NewEndpoint(raw)
	if err != nil {
		return nil, fmt.Errorf("git source %s: invalid URL", redactRaw(raw))
	}
	if ep.Protocol == "ssh" { // scp-like user@host:path
		s.proto, s.user = "ssh", ep.User
		s.remote, s.display = raw, raw
		s.key = "scp:" + ep.User + "@" + strings.ToLower(ep.Host) + ":" + normalizeRepoPath(ep.Path)
		return s, nil
	}
	p, err := filepath.Abs(raw)
	if err != nil {
		return nil, fmt.Errorf("git source %s: %v", raw, err)
	}
	s.proto = "file"
	s.remote, s.display, s.key = p, p, "file://"+filepath.ToSlash(p)
	return s, nil
}

func normalizeRepoPath(p string) string {
	p = strings.TrimRight(p, "/")
	return strings.TrimSuffix(p, ".git")
}

// redactRaw hides any user information in a URL that did not parse.
func redactRaw(raw string) string {
	i := strings.Index(raw, "://")
	if i < 0 {
		return raw
	}
	rest := raw[i+3:]
	if at := strings.LastIndex(rest, "@"); at >= 0 {
		if slash := strings.Index(rest, "/"); slash < 0 || at < slash {
			return raw[:i+3] + "***@" + rest[at+1:]
		}
	}
	return raw
}

// defaultAuth is the authentication used when Git.Auth is nil.
func (s *gitURL) defaultAuth() (transport.AuthMethod, error) {
	switch s.proto {
	case "http", "https":
		if s.http != nil {
			return s.http, nil
		}
		return nil, nil
	case "ssh":
	default:
		return nil, nil
	}
	user := s.user
	if user == "" {
		user = gitssh.DefaultUsername
	}
	if s.pass != "" {
		return &gitssh.Password{User: user, Password: s.pass}, nil
	}
	if os.Getenv("SSH_AUTH_SOCK") != "" {
		a, err := gitssh.NewSSHAgentAuth(user)
		if err == nil {
			return a, nil
		}
	}
	home, _ := os.UserHomeDir()
	var tried []string
	for _, name := range []string{"id_ed25519", "id_ecdsa", "id_rsa"} {
		if home == "" {
			break
		}
		f := filepath.Join(home, ".ssh", name)
		if _, err := os.Stat(f); err != nil {
			continue
		}
		a, err := gitssh.NewPublicKeysFromFile(user, f, "")
		if err == nil {
			return a, nil
		}
		tried = append(tried, fmt.Sprintf("%s (%v)", f, err))
	}
	msg := "ssh: no SSH agent (SSH_AUTH_SOCK is not set or unusable) and no usable key in ~/.ssh (id_ed25519, id_ecdsa, id_rsa)"
	if len(tried) > 0 {
		msg += "; tried " + strings.Join(tried, ", ")
	}
	return nil, errors.New(msg + "; start ssh-agent and add a key, or use an https URL")
}

// headBranch asks the remote which branch HEAD points to; "main" when the
// remote does not advertise it.
func (s *gitURL) headBranch(ctx context.Context, auth transport.AuthMethod) (string, error) {
	refs, err := s.list(ctx, auth)
	if err != nil {
		return "", s.wrap("", "listing remote branches", err)
	}
	var headHash plumbing.Hash
	branches := map[plumbing.Hash][]string{}
	for _, r := range refs {
		switch {
		case r.Name() == plumbing.HEAD && r.Type() == plumbing.SymbolicReference && r.Target().IsBranch():
			return r.Target().Short(), nil
		case r.Name() == plumbing.HEAD:
			headHash = r.Hash()
		case r.Name().IsBranch():
			branches[r.Hash()] = append(branches[r.Hash()], r.Name().Short())
		}
	}
	if cands := branches[headHash]; !headHash.IsZero() && len(cands) > 0 {
		for _, pref := range []string{"main", "master"} {
			for _, c := range cands {
				if c == pref {
					return c, nil
				}
			}
		}
		sort.Strings(cands)
		return cands[0], nil
	}
	return "main", nil
}

func (s *gitURL) list(ctx context.Context, auth transport.AuthMethod) ([]*plumbing.Reference, error) {
	r := git.NewRemote(memory.NewStorage(), &config.RemoteConfig{Name: git.DefaultRemoteName, URLs: []string{s.remote}})
	return r.ListContext(ctx, &git.ListOptions{Auth: auth})
}

// remoteError explains a failed clone or fetch: a missing branch lists the
// remote's branches; authentication failures say so.
func (s *gitURL) remoteError(ctx context.Context, branch string, auth transport.AuthMethod, op string, err error) error {
	if ctx.Err() != nil {
		return s.wrap(branch, op, ctx.Err())
	}
	if errors.Is(err, git.NoMatchingRefSpecError{}) || errors.Is(err, plumbing.ErrReferenceNotFound) {
		refs, lerr := s.list(ctx, auth)
		if lerr == nil {
			var names []string
			for _, r := range refs {
				if r.Name().IsBranch() {
					names = append(names, r.Name().Short())
				}
			}
			sort.Strings(names)
			if len(names) == 0 {
				return s.errorf(branch, "branch %q not found: the remote has no branches", branch)
			}
			return s.errorf(branch, "branch %q not found; remote branches: %s", branch, strings.Join(names, ", "))
		}
		return s.errorf(branch, "branch %q not found", branch)
	}
	switch {
	case errors.Is(err, transport.ErrAuthenticationRequired) && auth != nil:
		return s.errorf(branch, "%s: authentication failed: the server refused the credentials", op)
	case errors.Is(err, transport.ErrAuthenticationRequired):
		return s.errorf(branch, "%s: authentication required (give a token in the URL, https://user:TOKEN@host/...)", op)
	case errors.Is(err, transport.ErrAuthorizationFailed):
		return s.errorf(branch, "%s: authorization failed: the credentials were refused", op)
	case errors.Is(err, transport.ErrRepositoryNotFound):
		return s.errorf(branch, "%s: repository not found", op)
	}
	return s.wrap(branch, op, err)
}

// gitError is an error whose message went through redaction. It unwraps to
// the cause only when the cause's message held no secret.
type gitError struct {
	msg   string
	cause error
}

func (e *gitError) Error() string { return e.msg }
func (e *gitError) Unwrap() error { return e.cause }

func (s *gitURL) prefix(branch string) string {
	if branch == "" {
		return "git source " + s.display
	}
	return fmt.Sprintf("git source %s (ref %s)", s.display, branch)
}

func (s *gitURL) redact(msg string) (string, bool) {
	out := msg
	for _, sec := range s.secrets {
		if sec == "" {
			continue
		}
		for _, form := range []string{sec, url.PathEscape(sec), url.QueryEscape(sec)} {
			out = strings.ReplaceAll(out, form, "***")
		}
	}
	return out, out != msg
}

func (s *gitURL) errorf(branch, format string, args ...any) error {
	msg, _ := s.redact(s.prefix(branch) + ": " + fmt.Sprintf(format, args...))
	return &gitError{msg: msg}
}

func (s *gitURL) wrap(branch, op string, err error) error {
	msg, changed := s.redact(fmt.Sprintf("%s: %s: %v", s.prefix(branch), op, err))
	e := &gitError{msg: msg}
	if !changed {
		e.cause = err
	}
	return e
}
