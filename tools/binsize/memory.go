package main

import (
	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// startRSS is the median over runs of the resident memory, in KiB, of bin
// with args once started and waiting on its input
// (/proc/PID/smaps_rollup, as tools/benchstart reads it).
func startRSS(bin string, args []string, dir string, runs int) (int64, error) {
	var xs []float64
	for range runs {
		kib, err := rssOnce(bin, args, dir)
		if err != nil {
			return 0, err
		}
		xs = append(xs, float64(kib))
	}
	return int64(benchkit.Median(xs)), nil
}

func rssOnce(bin string, args []string, dir string) (int64, error) {
	m, err := benchkit.StartedMemory(bin, args, dir)
	return m["Rss"], err
}
