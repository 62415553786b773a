package main

import (
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/render"
)

// BenchmarkLintCRDs does in-process what `kubeplan lint -o json corpus`
// does on the corpus `make bench-lint-crds` generated, for profiling:
//
//	go test ./tools/benchlintcrds -run '^$' -bench LintCRDs -benchtime 1x -cpuprofile cpu.out -memprofile mem.out
func BenchmarkLintCRDs(b *testing.B) {
	benchLint(b, filepath.Join("..", "..", ".bench", "lint-crds", "corpus"), "make bench-lint-crds")
}

// BenchmarkLintCRDsReal is the same on the rendered kubeflow/manifests
// `make bench-lint-crds-real` copied:
//
//	go test ./tools/benchlintcrds -run '^$' -bench LintCRDsReal -benchtime 1x -cpuprofile cpu.out -memprofile mem.out
func BenchmarkLintCRDsReal(b *testing.B) {
	benchLint(b, filepath.Join("..", "..", ".bench", "lint-crds-real", "corpus"), "make bench-lint-crds-real")
}

func benchLint(b *testing.B, dir, make string) {
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no corpus at %s: run %s first", dir, make)
	}
	b.ReportAllocs()
	for b.Loop() {
		rep, _, err := lint.Check(lint.Input{Paths: []string{dir}}, lint.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if err := render.Lint(io.Discard, "json", rep, render.LintOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
