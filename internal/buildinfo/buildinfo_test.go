package buildinfo

import "testing"

// The ldflags' values win over the toolchain's build information, and a
// commit is cut to 12 characters.
func TestLdflagsWin(t *testing.T) {
	defer func(v, c, d string) { version, commit, date = v, c, d }(version, commit, date)
	version, commit, date = "v1.4.0", "0123456789abcdef0123", "2026-01-02T03:04:05Z"
	if got := Version(); got != "v1.4.0" {
		t.Errorf("Version() = %q, want v1.4.0", got)
	}
	if c, d := Commit(); c != "0123456789ab" || d != "2026-01-02T03:04:05Z" {
		t.Errorf("Commit() = %q, %q", c, d)
	}
}

// Without ldflags, a test binary (no module version, no VCS stamp) is
// "dev".
func TestWithoutLdflags(t *testing.T) {
	defer func(v string) { version = v }(version)
	version = ""
	if got := Version(); got != "dev" {
		t.Errorf("Version() = %q, want dev", got)
	}
}
