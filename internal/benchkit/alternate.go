package benchkit

import (
	"fmt"
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
