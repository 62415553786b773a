package config

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
)

// Discover finds the .kubeplan.yaml that applies to dir: the first one found
// walking up from dir to the root of the git repository holding dir (the
// nearest directory with a .git file or directory), that root included. A
// file above the repository root is never read. When dir is in no git
// repository only dir itself is looked in. No file found yields an empty
// Config (File and Dir "").
//
// File is the path found, relative to the working directory when possible;
// Dir is its directory, absolute.
func Discover(dir string) (*Config, error) {
	start, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	root := repoRoot(start)
	for d := start; ; d = filepath.Dir(d) {
		p := filepath.Join(d, DefaultFile)
		fi, err := os.Stat(p)
		switch {
		case err == nil && !fi.IsDir():
			return Load(relToWD(p), true)
		case err != nil && !errors.Is(err, fs.ErrNotExist):
			return nil, err
		}
		if d == root || filepath.Dir(d) == d {
			return &Config{}, nil
		}
	}
}

// repoRoot is the nearest directory at or above dir (absolute) that holds
// .git, or dir itself when there is none.
func repoRoot(dir string) string {
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(filepath.Join(d, ".git")); err == nil {
			return d
		}
		if filepath.Dir(d) == d {
			return dir
		}
	}
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
	return relToWD(filepath.Join(c.Dir, p))
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

// CRDPaths is CRDs with every path resolved by Resolve.
func (c *Config) CRDPaths() []string {
	out := make([]string, len(c.CRDs))
	for i, p := range c.CRDs {
		out[i] = c.Resolve(p)
	}
	return out
}

// relToWD is abs relative to the working directory, or abs when that fails.
func relToWD(abs string) string {
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
