//go:build profile

package main

import (
	"os"
	"runtime"
	"runtime/metrics"
	"runtime/pprof"
	"time"
)

// A binary built with -tags profile writes a CPU profile of the whole
// process to $KUBEPLAN_CPUPROFILE, and the heap as it was at its largest
// (sampled every 20 ms; the profile's in-use figures are those of the GC
// cycle before) to $KUBEPLAN_HEAPPROFILE (development only: releases have
// no such file, so the profiler is not linked).
func init() {
	stops := []func(){}
	if path := os.Getenv("KUBEPLAN_CPUPROFILE"); path != "" {
		if f, err := os.Create(path); err == nil && pprof.StartCPUProfile(f) == nil {
			stops = append(stops, func() { pprof.StopCPUProfile(); f.Close() })
		}
	}
	if path := os.Getenv("KUBEPLAN_HEAPPROFILE"); path != "" {
		runtime.MemProfileRate = 64 << 10
		done := make(chan struct{})
		finished := make(chan struct{})
		go watchHeap(path, done, finished)
		stops = append(stops, func() { close(done); <-finished })
	}
	stopProfile = func() {
		for _, s := range stops {
			s()
		}
	}
}

// watchHeap writes the heap profile to path each time the live heap grows
// 10% past its largest so far, until done is closed.
func watchHeap(path string, done <-chan struct{}, finished chan<- struct{}) {
	defer close(finished)
	sample := []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}}
	var largest uint64
	t := time.NewTicker(20 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
		}
		metrics.Read(sample)
		if v := sample[0].Value.Uint64(); v > largest+largest/10 {
			largest = v
			if f, err := os.Create(path); err == nil {
				_ = pprof.Lookup("heap").WriteTo(f, 0)
				f.Close()
			}
		}
	}
}
