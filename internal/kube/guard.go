package kube

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/go-git/go-git/v5"
	"k8s.io/cli-runtime/pkg/genericclioptions"
	"k8s.io/client-go/tools/clientcmd"
)

// MaxKubeconfigSize bounds a kubeconfig file; the size is checked before
// the file is read, and again while reading it.
const MaxKubeconfigSize = 16 << 20

// CheckKubeconfigs checks the kubeconfig files f would load (--kubeconfig,
// else each file of $KUBECONFIG, else ~/.kube/config) before client-go
// reads them, and before anything of theirs runs:
//   - each must be a regular file of at most MaxKubeconfigSize bytes
//     (never a device, a FIFO or a directory);
//   - one that resolves (links followed) inside a checkout, where a pull
//     request may have written it, may not be a file git tracks there (a
//     repository file is never a kubeconfig), nor hold an exec plugin, an
//     auth-provider or any file reference (tokenFile, client certificate
//     or key, certificate authority): those run a command or send a
//     runner's file;
//   - one outside may not reference a file (or an exec command by path)
//     inside a checkout.
//
// checkouts are the directories of repositories being read ("" entries
// are ignored).
func CheckKubeconfigs(f *genericclioptions.ConfigFlags, checkouts ...string) error {
	roots := realRoots(checkouts)
	if p := deref(f.KubeConfig); p != "" {
		return checkKubeconfig(p, true, roots)
	}
	for _, p := range clientcmd.NewDefaultClientConfigLoadingRules().GetLoadingPrecedence() {
		if err := checkKubeconfig(p, false, roots); err != nil {
			return err
		}
	}
	return nil
}

// checkKubeconfig checks one file; a missing one is an error only when
// explicit (client-go skips missing files of $KUBECONFIG).
func checkKubeconfig(path string, explicit bool, roots []string) error {
	info, err := os.Stat(path)
	if err != nil {
		if !explicit && errors.Is(err, fs.ErrNotExist) {
			return nil
		}
		return fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	if !info.Mode().IsRegular() {
		return fmt.Errorf("kubeconfig %s is not a regular file (%s); kubeplan reads no device, FIFO or directory as a kubeconfig", path, info.Mode().Type())
	}
	if info.Size() > MaxKubeconfigSize {
		return fmt.Errorf("kubeconfig %s is %d bytes, more than a kubeconfig's %d", path, info.Size(), MaxKubeconfigSize)
	}
	real, err := realPath(path)
	if err != nil {
		return fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	root := within(real, roots)
	data, err := readAtMost(real, MaxKubeconfigSize)
	if err != nil {
		return fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	cfg, err := clientcmd.Load(data)
	if err != nil {
		if root != "" {
			return fmt.Errorf("kubeconfig %s (inside the checkout %s) is not a valid kubeconfig", path, root)
		}
		return fmt.Errorf("kubeconfig %s: %w", path, err)
	}
	if root != "" {
		if trackedIn(root, real) {
			return fmt.Errorf("kubeconfig %s is a file of the repository %s (git tracks it), which a pull request can change: refusing to use it; "+
				"write the kubeconfig outside the checkout (e.g. in $RUNNER_TEMP) and pass it with --kubeconfig or --clusters NAME=KUBECONFIG", path, root)
		}
		if what := credentialRefs(cfg); what != "" {
			return fmt.Errorf("kubeconfig %s is inside the checkout %s, where a pull request can change it, and %s: "+
				"refusing to use it; write the kubeconfig outside the checkout (e.g. in $RUNNER_TEMP) and pass it with --kubeconfig or --clusters NAME=KUBECONFIG",
				path, root, what)
		}
		return nil
	}
	for _, ref := range fileRefs(cfg, filepath.Dir(real)) {
		if r := within(ref.path, roots); r != "" {
			return fmt.Errorf("kubeconfig %s: %s names %s, inside the checkout %s, where a pull request can change it; keep the files a kubeconfig names outside the checkout",
				path, ref.what, ref.path, r)
		}
	}
	return nil
}

// readAtMost reads path, failing past max bytes (a file that grew since
// it was measured).
func readAtMost(path string, max int64) ([]byte, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	data, err := io.ReadAll(io.LimitReader(fh, max+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > max {
		return nil, fmt.Errorf("more than %d bytes", max)
	}
	return data, nil
}

// realPath is path absolute, with its links resolved.
func realPath(path string) (string, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return "", err
	}
	return filepath.EvalSymlinks(abs)
}

// realRoots are the checkouts, absolute, links resolved.
func realRoots(checkouts []string) []string {
	var out []string
	for _, c := range checkouts {
		if c == "" {
			continue
		}
		if r, err := realPath(c); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// within is the root path is in, "" when none.
func within(path string, roots []string) string {
	for _, r := range roots {
		rel, err := filepath.Rel(r, path)
		if err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return r
		}
	}
	return ""
}

// trackedIn reports whether path is in the index of the git repository
// holding root.
func trackedIn(root, path string) bool {
	repo, err := git.PlainOpenWithOptions(root, &git.PlainOpenOptions{DetectDotGit: true, EnableDotGitCommonDir: true})
	if err != nil {
		return false
	}
	wt, err := repo.Worktree()
	if err != nil {
		return false
	}
	idx, err := repo.Storer.Index()
	if err != nil {
		return false
	}
	top, err := realPath(wt.Filesystem.Root())
	if err != nil {
		return false
	}
	rel, err := filepath.Rel(top, path)
	if err != nil {
		return false
	}
	_, err = idx.Entry(filepath.ToSlash(rel))
	return err == nil
}
