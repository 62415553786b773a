package main

import (
	"github.com/kubeplan/kubeplan/internal/benchkit"

	"time"
)

// The target of the issue: kubeplan at most half of kubeconform's wall time
// and no more peak memory.
const (
	targetWallRatio = 0.5
	targetRSSRatio  = 1.0
)

// summary condenses the timed runs of one tool.
type summary struct {
	MedianWall time.Duration
	MinWall    time.Duration
	MedianCPU  time.Duration
	PeakRSS    int64 // KiB, the largest over the runs
	MedianRSS  int64 // KiB
}

func summarize(ss []sample) summary {
	walls := make([]float64, len(ss))
	cpus := make([]float64, len(ss))
	rss := make([]float64, len(ss))
	var out summary
	for i, s := range ss {
		walls[i], cpus[i], rss[i] = float64(s.Wall), float64(s.CPU), float64(s.MaxRSS)
		if out.MinWall == 0 || s.Wall < out.MinWall {
			out.MinWall = s.Wall
		}
		if s.MaxRSS > out.PeakRSS {
			out.PeakRSS = s.MaxRSS
		}
	}
	out.MedianWall = time.Duration(benchkit.Median(walls))
	out.MedianCPU = time.Duration(benchkit.Median(cpus))
	out.MedianRSS = int64(benchkit.Median(rss))
	return out
}

// ratios compares kubeplan (a) with kubeconform (b).
type ratios struct {
	Wall       float64 // median of the per-pair wall ratios of alternating runs
	WallMedian float64 // ratio of the median walls
	WallMin    float64 // ratio of the minimum walls
	CPU        float64 // ratio of the median CPU times
	RSS        float64 // ratio of the peak RSS
}

func compare(kp, kc []sample) ratios {
	a, b := summarize(kp), summarize(kc)
	pairs := make([]float64, 0, len(kp))
	for i := range kp {
		if i < len(kc) && kc[i].Wall > 0 {
			pairs = append(pairs, float64(kp[i].Wall)/float64(kc[i].Wall))
		}
	}
	return ratios{
		Wall:       benchkit.Median(pairs),
		WallMedian: benchkit.Div(float64(a.MedianWall), float64(b.MedianWall)),
		WallMin:    benchkit.Div(float64(a.MinWall), float64(b.MinWall)),
		CPU:        benchkit.Div(float64(a.MedianCPU), float64(b.MedianCPU)),
		RSS:        benchkit.Div(float64(a.PeakRSS), float64(b.PeakRSS)),
	}
}

func (r ratios) wallOK() bool { return r.Wall <= targetWallRatio }
func (r ratios) rssOK() bool  { return r.RSS <= targetRSSRatio }
func (r ratios) pass() bool   { return r.wallOK() && r.rssOK() }
