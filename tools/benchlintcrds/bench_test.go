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
	dir := filepath.Join("..", "..", ".bench", "lint-crds", "corpus")
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no corpus at %s: run make bench-lint-crds first", dir)
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
