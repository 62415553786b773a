package testkube

import (
	"os"
	"testing"
)

// InCI reports whether the tests run in CI (CI=true), where nothing a
// behaviour depends on may be skipped.
func InCI() bool { return os.Getenv("CI") == "true" }

// SkipUnlessCI skips t with reason on a developer's machine that lacks
// something the test needs (a tool, a module); in CI the same condition is
// a broken machine and fails the test.
func SkipUnlessCI(t testing.TB, reason string) {
	t.Helper()
	if InCI() {
		t.Fatalf("%s (CI must run this test)", reason)
	}
	t.Skip(reason)
}

// Integration marks t as an integration test against bin/testcluster. It is
// skipped with -short, the quick unit-test run; `make test` and CI run it,
// and in CI -short is refused rather than obeyed.
func Integration(t testing.TB) {
	t.Helper()
	if testing.Short() {
		SkipUnlessCI(t, "integration test against bin/testcluster, skipped with -short (make test runs it)")
	}
}
