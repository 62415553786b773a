package testkube

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNamespaceName(t *testing.T) {
	for _, tc := range []struct {
		test string
		seq  int64
		want string
	}{
		{"TestApply/prune_one", 3, "testapply-prune-one-3"},
		{"///", 1, "test-1"},
		{strings.Repeat("a", 80), 12, strings.Repeat("a", 60) + "-12"},
	} {
		if got := namespaceName(tc.test, tc.seq); got != tc.want {
			t.Errorf("namespaceName(%q, %d) = %q, want %q", tc.test, tc.seq, got, tc.want)
		}
	}
}

func TestBinaryFromEnv(t *testing.T) {
	t.Setenv(binaryEnv, filepath.Join(t.TempDir(), "missing"))
	if _, err := Binary(); err == nil {
		t.Fatal("Binary() found a missing file")
	}
	p := filepath.Join(t.TempDir(), "testcluster")
	if err := os.WriteFile(p, nil, 0o700); err != nil {
		t.Fatal(err)
	}
	t.Setenv(binaryEnv, p)
	if got, err := Binary(); err != nil || got != p {
		t.Fatalf("Binary() = %q, %v; want %q", got, err, p)
	}
}

func TestRepoRootIsThisModule(t *testing.T) {
	if isRepoRoot(".") {
		t.Error("internal/testing/testkube taken for the repository root")
	}
	if !isRepoRoot("../../..") {
		t.Error("repository root not recognised")
	}
	if isRepoRoot("../../../testcluster") {
		t.Error("the testcluster module taken for the repository root")
	}
}

func TestTailBuffer(t *testing.T) {
	b := &tailBuffer{max: 4}
	b.Write([]byte("abc"))
	b.Write([]byte("def"))
	if got := b.String(); got != "cdef" {
		t.Errorf("tail = %q, want cdef", got)
	}
}
