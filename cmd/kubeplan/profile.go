//go:build profile

package main

import (
	"os"
	"runtime/pprof"
)

// A binary built with -tags profile writes a CPU profile of the whole
// process to $KUBEPLAN_CPUPROFILE (development only: releases have no such
// file, so the profiler is not linked).
func init() {
	path := os.Getenv("KUBEPLAN_CPUPROFILE")
	if path == "" {
		return
	}
	f, err := os.Create(path)
	if err != nil {
		return
	}
	if pprof.StartCPUProfile(f) == nil {
		stopProfile = func() { pprof.StopCPUProfile(); f.Close() }
	}
}
