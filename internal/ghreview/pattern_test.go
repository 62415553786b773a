package ghreview

import "testing"

// TestPatternMatchFile checks file matching against the examples of
// GitHub's "About code owners" page and gitignore's pattern rules.
func TestPatternMatchFile(t *testing.T) {
	for _, c := range []struct {
		pattern string
		paths   map[string]bool
	}{
		// "*": the default owners of everything.
		{"*", map[string]bool{"README.md": true, "apps/db/pvc.yaml": true, ".github/CODEOWNERS": true}},
		// "*.js": any .js file anywhere.
		{"*.js", map[string]bool{"app.js": true, "src/web/app.js": true, "app.jsx": false, "js/app.ts": false}},
		// "/build/logs/": the directory at the root and its subdirectories.
		{"/build/logs/", map[string]bool{"build/logs/a.log": true, "build/logs/2026/a.log": true, "build/logs": false, "src/build/logs/a.log": false}},
		// "docs/*": files in docs, not further nested.
		{"docs/*", map[string]bool{"docs/getting-started.md": true, "docs/build-app/troubleshooting.md": false, "docs": false, "x/docs/a.md": false}},
		// "apps/": any file in an apps directory anywhere.
		{"apps/", map[string]bool{"apps/web.yaml": true, "apps/db/pvc.yaml": true, "deploy/apps/x.yaml": true, "apps": false, "myapps/x": false}},
		// "/docs/": the root docs directory and its subdirectories.
		{"/docs/", map[string]bool{"docs/a.md": true, "docs/guide/b.md": true, "site/docs/a.md": false}},
		// "**/logs": a logs directory anywhere.
		{"**/logs", map[string]bool{"build/logs/a": true, "scripts/logs/b": true, "deeply/nested/logs/c": true, "logs/d": true, "logsx/e": false}},
		// "/apps/github": that path and below.
		{"/apps/github", map[string]bool{"apps/github": true, "apps/github/x.yaml": true, "apps/githubx": false, "x/apps/github": false}},
		// A name without a slash matches at any depth, as a file or directory.
		{"foo", map[string]bool{"foo": true, "foo.txt": false, "bar/foo": true, "bar/foo/baz": true}},
		{"f*", map[string]bool{"foo": true, "bar/foo/baz": true, "bar/baz": false}},
		{"/*", map[string]bool{"foo": true, "foo/bar": false}},
		{"/*/", map[string]bool{"foo": false, "foo/bar": true, "foo/bar/baz": true}},
		{"foo/*/baz", map[string]bool{"foo/bar/baz": true, "foo/baz": false, "foo/bar/baz/qux": true}},
		{"foo/**/bar", map[string]bool{"foo/bar": true, "foo/a/b/bar/c": true, "x/foo/bar": false}},
		{"foo/bar/**", map[string]bool{"foo/bar": false, "foo/bar/baz": true, "foo/bar/a/b": true}},
		{"**/*.yaml", map[string]bool{"a.yaml": true, "x/y/a.yaml": true, "a.yml": false}},
		{"f?o", map[string]bool{"foo": true, "fo": false, "fooo": false}},
		{`f\*o`, map[string]bool{"f*o": true, "foo": false}},
		// Brackets are literal: GitHub does not support ranges.
		{"[ab].yaml", map[string]bool{"[ab].yaml": true, "a.yaml": false}},
	} {
		p, err := compilePattern(c.pattern)
		if err != nil {
			t.Errorf("%q: %v", c.pattern, err)
			continue
		}
		for path, want := range c.paths {
			if got := p.matchFile(splitPath(path)); got != want {
				t.Errorf("%q matches %q = %v, want %v", c.pattern, path, got, want)
			}
		}
	}
}

func TestPatternErrors(t *testing.T) {
	for _, s := range []string{"!apps/", "a/***", "/", "a//b"} {
		if _, err := compilePattern(s); err == nil {
			t.Errorf("%q: no error", s)
		}
	}
}

// TestPatternDirs checks what a directory (a pruned project's path) is
// covered by, and which later rules may reach below it.
func TestPatternDirs(t *testing.T) {
	for _, c := range []struct {
		pattern, dir  string
		covers, below bool
	}{
		{"*", "apps/db", true, true},
		{"*", ".", true, true},
		{"/apps/", "apps/db", true, true},
		{"/apps/", "apps", true, true},
		{"/apps/", ".", false, true},
		{"apps/db", "apps/db", true, true},
		{"/apps/db/", "apps/db", true, true},
		{"/apps/db/*", "apps/db", false, true}, // only its files, not its subdirectories
		{"/apps/db/secret/", "apps/db", false, true},
		{"/apps/web/", "apps/db", false, false},
		{"*.yaml", "apps/db", false, true},
		{"/apps/**/*", "apps/db", true, true},
		{"/apps/*", "apps", false, true},
		{"/apps/*", "apps/db", false, false}, // apps/db itself, not what is in it
		{"**", ".", true, true},
		{"/*", ".", false, true},
		{"/other", "apps/db", false, false},
	} {
		p, err := compilePattern(c.pattern)
		if err != nil {
			t.Fatal(err)
		}
		d := splitPath(c.dir)
		if got := p.coversDir(d); got != c.covers {
			t.Errorf("%q covers %q = %v, want %v", c.pattern, c.dir, got, c.covers)
		}
		if got := p.mayMatchBelow(d); got != c.below {
			t.Errorf("%q may match below %q = %v, want %v", c.pattern, c.dir, got, c.below)
		}
	}
}
