package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/internal/confine"
)

// Discover finds the kubeplan.yaml that applies to dir: the first one found
// walking up from dir to the root of the git repository holding dir (the
// nearest directory with a .git file or directory), that root included. A
// file above the repository root is never read. When dir is in no git
// repository only dir itself is looked in. No file found yields an empty
// Config (File and Dir "").
//
// A directory without kubeplan.yaml but with the legacy .kubeplan.yaml
// yields that one, with Legacy set; a directory with both is an error.
//
// File is the path found, relative to the working directory when possible;
// Dir is its directory, absolute.
func Discover(dir string) (*Config, error) {
	start, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	top := RepoRoot(start)
	// Whatever is found is read only if it resolves inside the checkout.
	root, err := confine.RealDir(top)
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	for d := start; ; d = filepath.Dir(d) {
		c, err := loadIn(d, root)
		if c != nil || err != nil {
			return c, err
		}
		if d == top || filepath.Dir(d) == d {
			return &Config{}, nil
		}
	}
}

// loadIn reads the config of directory d, which must resolve inside root,
// or returns nil when it has none.
func loadIn(d, root string) (*Config, error) {
	cur, err := present(filepath.Join(d, DefaultFile))
	if err != nil {
		return nil, err
	}
	legacy, err := present(filepath.Join(d, LegacyFile))
	if err != nil {
		return nil, err
	}
	switch {
	case cur && legacy:
		return nil, fmt.Errorf("%s: both %s and %s are here; keep %s only", RelToWD(d), DefaultFile, LegacyFile, DefaultFile)
	case cur:
		return load(RelToWD(filepath.Join(d, DefaultFile)), true, root)
	case legacy:
		c, err := load(RelToWD(filepath.Join(d, LegacyFile)), true, root)
		if c != nil {
			c.Legacy = true
		}
		return c, err
	}
	return nil, nil
}

// present reports whether p is there and not a directory: a file, or a
// link, a FIFO or a device that reading will refuse with a clear error
// (a link to nowhere included: it is not silently taken for no config). A
// missing p is no error.
func present(p string) (bool, error) {
	fi, err := os.Lstat(p)
	switch {
	case err == nil:
		return !fi.IsDir(), nil
	case errors.Is(err, fs.ErrNotExist):
		return false, nil
	}
	return false, err
}

// IsConfigName reports whether a file's base name is the config's, under
// its name or its legacy name.
func IsConfigName(base string) bool { return base == DefaultFile || base == LegacyFile }

// RepoRoot is the nearest directory at or above dir (absolute) that holds
// .git, or dir itself when there is none (confine.RepoTop).
func RepoRoot(dir string) string {
	if top := confine.RepoTop(dir); top != "" {
		return top
	}
	return dir
}

// Resolve makes a path written in the config (a crds entry) relative to the
// config file's directory: an absolute path is kept, a relative one is
// joined with Dir and then made relative to the working directory when
// possible ("../../crds" from two levels below Dir). With no Dir (no config
// file) p is returned as it is.
func (c *Config) Resolve(p string) string {
	if p == "" || filepath.IsAbs(p) || c.Dir == "" {
		return p
	}
	return RelToWD(filepath.Join(c.Dir, p))
}

// ResolveGlob is Resolve for an exclude pattern. A pattern that matches at
// any depth is kept as it is: one without "/" (manifest.Load matches it
// against base names too, "*.bak") and one starting with "**/".
func (c *Config) ResolveGlob(pat string) string {
	p := strings.TrimSuffix(filepath.ToSlash(pat), "/")
	if !strings.Contains(p, "/") || strings.HasPrefix(p, "**/") {
		return pat
	}
	return c.Resolve(pat)
}

// ExcludePatterns is Exclude with every pattern resolved by ResolveGlob.
func (c *Config) ExcludePatterns() []string {
	out := make([]string, len(c.Exclude))
	for i, p := range c.Exclude {
		out[i] = c.ResolveGlob(p)
	}
	return out
}

// GuardFilePatterns are the rule files guards.files names (a file, or
// everything under a directory), as exclude globs: they are kubeplan's
// configuration, never manifests, so lint does not read them.
func (c *Config) GuardFilePatterns() []string {
	var out []string
	for _, p := range c.GuardFiles {
		p = strings.TrimSuffix(p, "/")
		out = append(out, c.ResolveGlob(p), c.ResolveGlob(p+"/**"))
	}
	return out
}

// IgnorePatterns is Ignore with every pattern resolved by ResolveGlob, as
// exclude globs.
func (c *Config) IgnorePatterns() []string {
	out := make([]string, len(c.Ignore))
	for i, p := range c.Ignore {
		out[i] = c.ResolveGlob(p)
	}
	return out
}

// CRDPaths is CRDs with every path resolved by Resolve.
func (c *Config) CRDPaths() []string {
	out := make([]string, len(c.CRDs))
	for i, p := range c.CRDs {
		out[i] = c.Resolve(p)
	}
	return out
}

// PolicyPaths is Policies with every path resolved by Resolve.
func (c *Config) PolicyPaths() []string {
	out := make([]string, len(c.Policies))
	for i, p := range c.Policies {
		out[i] = c.Resolve(p)
	}
	return out
}

// RelToWD is abs relative to the working directory, or abs when that
// fails: how paths in the config are shown, and what exclude globs match.
func RelToWD(abs string) string {
	wd, err := os.Getwd()
	if err != nil {
		return abs
	}
	if r, err := filepath.Rel(wd, abs); err == nil {
		return r
	}
	return abs
}

// dirOf is the absolute directory of the file at path.
func dirOf(path string) string {
	if abs, err := filepath.Abs(path); err == nil {
		return filepath.Dir(abs)
	}
	return filepath.Dir(path)
}
