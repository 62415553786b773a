package benchkit

import "time"

// Summary condenses the timed runs of one command.
type Summary struct {
	MedianWall, MinWall  time.Duration
	MedianCPU, MedianSrv time.Duration
	PeakRSS              int64 // KiB, the largest over the runs
}

// Summarize is the Summary of ss.
func Summarize(ss []Sample) Summary {
	var walls, cpus, srvs []float64
	var out Summary
	for _, s := range ss {
		walls, cpus, srvs = append(walls, float64(s.Wall)), append(cpus, float64(s.CPU)), append(srvs, float64(s.ServerCPU))
		if out.MinWall == 0 || s.Wall < out.MinWall {
			out.MinWall = s.Wall
		}
		out.PeakRSS = max(out.PeakRSS, s.MaxRSS)
	}
	out.MedianWall = time.Duration(Median(walls))
	out.MedianCPU = time.Duration(Median(cpus))
	out.MedianSrv = time.Duration(Median(srvs))
	return out
}

// Settle waits (at most a minute) until the process pid uses less than 5%
// of a CPU over a second: a cluster's controllers done with new objects.
func Settle(pid int) {
	for deadline := time.Now().Add(time.Minute); time.Now().Before(deadline); {
		before := ProcessCPU(pid)
		time.Sleep(time.Second)
		if ProcessCPU(pid)-before < 50*time.Millisecond {
			return
		}
	}
}
