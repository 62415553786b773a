package benchkit

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
)

// Alternate times a and b in turn, runs times each (under /usr/bin/time
// when there is one, its output files in dir): the same load on a shared
// machine falls on both. each, when set, is told every pair as it is
// measured.
func Alternate(a, b Tool, dir string, runs int, each func(i int, sa, sb Sample)) (Summary, Summary, error) {
	aT, aRSS := Timed(a, dir)
	bT, bRSS := Timed(b, dir)
	var as, bs []Sample
	for i := range runs {
		sa, _, err := RunTimed(aT, aRSS)
		if err != nil {
			return Summary{}, Summary{}, err
		}
		sb, _, err := RunTimed(bT, bRSS)
		if err != nil {
			return Summary{}, Summary{}, err
		}
		as, bs = append(as, sa), append(bs, sb)
		if each != nil {
			each(i, sa, sb)
		}
	}
	return Summarize(as), Summarize(bs), nil
}

// PairTable is a markdown table of two summaries, their columns headed
// aName and bName, with b's ratio to a: median wall, median CPU and peak
// RSS (wall and RSS in bold).
func PairTable(aName, bName string, a, b Summary) string {
	var md strings.Builder
	fmt.Fprintf(&md, "| | %s | %s | ratio |\n|---|---|---|---|\n", aName, bName)
	fmt.Fprintf(&md, "| median wall | %.2f s | %.2f s | **%.2f×** |\n", a.MedianWall.Seconds(), b.MedianWall.Seconds(), Div(float64(b.MedianWall), float64(a.MedianWall)))
	fmt.Fprintf(&md, "| median CPU | %.2f s | %.2f s | %.2f× |\n", a.MedianCPU.Seconds(), b.MedianCPU.Seconds(), Div(float64(b.MedianCPU), float64(a.MedianCPU)))
	fmt.Fprintf(&md, "| peak RSS | %d MiB | %d MiB | **%.2f×** |\n", a.PeakRSS/1024, b.PeakRSS/1024, Div(float64(b.PeakRSS), float64(a.PeakRSS)))
	return md.String()
}

// LintCorpus makes (once) the 20,000-object corpus of tools/benchlint and
// a work directory .bench/NAME for the caller's own files: it returns the
// directory holding corpus/ (.bench/lint) and the work directory.
func LintCorpus(root, name string, step func(format string, args ...any)) (benchDir, workDir string, err error) {
	step("the corpus of tools/benchlint (.bench/lint/corpus)")
	if err := Go(root, nil, "run", "./tools/benchlint", "-corpus-only"); err != nil {
		return "", "", err
	}
	workDir = filepath.Join(root, ".bench", name)
	if err := os.MkdirAll(workDir, 0o755); err != nil {
		return "", "", err
	}
	return filepath.Join(root, ".bench", "lint"), workDir, nil
}
