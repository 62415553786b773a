package main

import (
	"github.com/kubeplan/kubeplan/tools/benchkit"

	"time"
)

// The targets of the issue.
const (
	targetWallRatio      = 0.25 // kubeplan plan wall / kubectl diff --server-side wall
	targetPerObjectRatio = 2.0  // per-object wall at 10,000 objects / at 1,200
)

// summary condenses the timed runs of one tool.
type summary struct {
	MedianWall, MinWall  time.Duration
	MedianCPU, MedianSrv time.Duration
	PeakRSS              int64 // KiB, the largest over the runs
}

func summarize(ss []sample) summary {
	var walls, cpus, srvs []float64
	var out summary
	for _, s := range ss {
		walls, cpus, srvs = append(walls, float64(s.Wall)), append(cpus, float64(s.CPU)), append(srvs, float64(s.ServerCPU))
		if out.MinWall == 0 || s.Wall < out.MinWall {
			out.MinWall = s.Wall
		}
		out.PeakRSS = max(out.PeakRSS, s.MaxRSS)
	}
	out.MedianWall = time.Duration(benchkit.Median(walls))
	out.MedianCPU = time.Duration(benchkit.Median(cpus))
	out.MedianSrv = time.Duration(benchkit.Median(srvs))
	return out
}

// pairedRatio is the median over runs i of a[i].Wall / b[i].Wall: runs
// alternate, so each pair shares the machine's load.
func pairedRatio(a, b []sample) float64 {
	var rs []float64
	for i := range a {
		if i < len(b) && b[i].Wall > 0 {
			rs = append(rs, float64(a[i].Wall)/float64(b[i].Wall))
		}
	}
	return benchkit.Median(rs)
}
