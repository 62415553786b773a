package main

import (
	"io"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/render"
)

// benchCorpus is the corpus `make bench-lint` generated, or BENCHLINT_CORPUS.
func benchCorpus(b *testing.B) string {
	dir := os.Getenv("BENCHLINT_CORPUS")
	if dir == "" {
		dir = filepath.Join("..", "..", ".bench", "lint", "corpus")
	}
	if _, err := os.Stat(dir); err != nil {
		b.Skipf("no corpus at %s: run make bench-lint (go run ./tools/benchlint) first", dir)
	}
	return dir
}

// BenchmarkLintCorpus does in-process what `kubeplan lint -o json corpus`
// does (lint.Check (streamed), the JSON report), for profiling
// where kubeplan's time and memory go:
//
//	go test ./tools/benchlint -run '^$' -bench LintCorpus -benchtime 1x -cpuprofile cpu.out -memprofile mem.out
//	go tool pprof -top tools/benchlint/benchlint.test cpu.out
//
// With -benchtime 1x the built-in schemas are compiled inside the measured
// iteration, as in one CLI run; later iterations reuse them.
func BenchmarkLintCorpus(b *testing.B) {
	dir := benchCorpus(b)
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

// BenchmarkLoadCorpus measures manifest.Load alone: reading and parsing the
// whole corpus with positions. It also reports the live heap the loaded
// corpus holds (live-MiB): what lint.Check with KeepObjects, unlike the streamed lint, keeps
// until the end.
func BenchmarkLoadCorpus(b *testing.B) {
	dir := benchCorpus(b)
	b.ReportAllocs()
	var res *loader.Result
	for b.Loop() {
		var err error
		if res, err = loader.Load([]string{dir}, loader.Options{}); err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	runtime.KeepAlive(res)
	res = nil
	runtime.GC()
	runtime.ReadMemStats(&after)
	b.ReportMetric(float64(before.HeapAlloc-after.HeapAlloc)/(1<<20), "live-MiB")
}
