// Package parallel runs indexed work on a bounded number of goroutines.
package parallel

import (
	"runtime"
	"sync"
)

// Each calls fn(i) for every i in [0, count) on at most n goroutines
// (n <= 0 means the number of CPUs) and returns when all calls have. fn must
// write its result into a slot of its own, indexed by i, so results keep
// their input order.
func Each(n, count int, fn func(i int)) {
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	next := make(chan int, n)
	var wg sync.WaitGroup
	for w := 0; w < n; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				fn(i)
			}
		}()
	}
	for i := 0; i < count; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
}
