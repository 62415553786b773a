package main

import (
	"bytes"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
)

func TestGitHubOutputArg(t *testing.T) {
	for args, want := range map[string]bool{
		"lint -o github .":        true,
		"lint --output github":    true,
		"lint --output=github":    true,
		"lint -ogithub":           true,
		"lint -o text github":     false,
		"lint -- --output=github": false,
		"plan":                    false,
	} {
		if got := githubOutput(splitArgs(args)); got != want {
			t.Errorf("githubOutput(%q) = %v, want %v", args, got, want)
		}
	}
}

func splitArgs(s string) []string { return strings.Fields(s) }

// Two descriptors of one pipe (2>&1) are one stream; two pipes are two.
func TestSameStream(t *testing.T) {
	r1, w1, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r1.Close()
	defer w1.Close()
	r2, w2, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r2.Close()
	defer w2.Close()
	fd, err := syscall.Dup(int(w1.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	dup := os.NewFile(uintptr(fd), "dup")
	defer dup.Close()
	var a, b bytes.Buffer
	for _, tc := range []struct {
		name string
		x, y io.Writer
		want bool
	}{
		{"one pipe", w1, dup, true},
		{"two pipes", w1, w2, false},
		{"one buffer", &a, &a, true},
		{"two buffers", &a, &b, false},
	} {
		if got := sameStream(tc.x, tc.y); got != tc.want {
			t.Errorf("%s: sameStream = %v, want %v", tc.name, got, tc.want)
		}
	}
}
