package main

import (
	"github.com/kubeplan/kubeplan/internal/benchkit"
)

// The targets of the issue.
const (
	targetWallRatio      = 0.25 // kubeplan plan wall / kubectl diff --server-side wall
	targetPerObjectRatio = 2.0  // per-object wall at 10,000 objects / at 1,200
)

// summary condenses the timed runs of one tool.
type summary = benchkit.Summary

func summarize(ss []sample) summary { return benchkit.Summarize(ss) }

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
