package run

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"github.com/kubeplan/kubeplan/project"
)

// DefaultPerCluster is how many projects run at once on one cluster.
const DefaultPerCluster = 4

// step runs one project; deps are the reports of the selected projects it
// depends on, all finished and none failed or skipped.
type step func(ctx context.Context, i int, deps []*ProjectReport)

// schedule runs every project once, each after the selected projects it
// depends on (a dependency that is not selected is taken as done), at
// most perCluster at a time per cluster. A project whose dependency failed
// or was skipped is skipped, and so is every project once ctx is done.
// reps[i] is project ps[i]'s report; a step fills it in. Once halt is
// closed no further project starts (those under way finish); a nil halt
// never closes.
func schedule(ctx context.Context, ps []project.Project, reps []ProjectReport, perCluster int, halt <-chan struct{}, run step) error {
	index := map[string]int{}
	for i, p := range ps {
		index[p.Name] = i
	}
	if err := checkCycles(ps, index); err != nil {
		return err
	}
	if perCluster <= 0 {
		perCluster = DefaultPerCluster
	}
	slots := map[string]chan struct{}{}
	for _, p := range ps {
		if slots[p.Cluster()] == nil {
			slots[p.Cluster()] = make(chan struct{}, perCluster)
		}
	}
	done := make([]chan struct{}, len(ps))
	for i := range done {
		done[i] = make(chan struct{})
	}
	var wg sync.WaitGroup
	for i, p := range ps {
		wg.Go(func() {
			defer close(done[i])
			var deps []*ProjectReport
			for _, d := range p.DependsOn {
				j, ok := index[d]
				if !ok {
					continue // not selected: applied by an earlier run
				}
				<-done[j]
				if st := reps[j].Status; st == Failed || st == Skipped {
					reps[i].Status, reps[i].Error = Skipped, fmt.Sprintf("skipped: it depends on %s, which %s", d, pastTense(st))
					return
				}
				deps = append(deps, &reps[j])
			}
			slot := slots[p.Cluster()]
			stopped := func() {
				reps[i].Status, reps[i].Error = Skipped, "skipped: the run was stopped ("+context.Cause(ctx).Error()+")"
			}
			halted := func() {
				reps[i].Status, reps[i].Error = Skipped, "skipped: the run was stopped before it started"
			}
			select {
			case slot <- struct{}{}:
			case <-ctx.Done():
				stopped()
				return
			case <-halt:
				halted()
				return
			}
			select {
			case <-halt:
				<-slot
				halted()
				return
			default:
			}
			if ctx.Err() != nil {
				<-slot
				stopped()
				return
			}
			defer func() { <-slot }()
			run(ctx, i, deps)
		})
	}
	wg.Wait()
	return nil
}

func pastTense(s Status) string {
	if s == Failed {
		return "failed"
	}
	return "was skipped"
}

// checkCycles refuses dependsOn cycles among the selected projects (they
// would wait for each other forever), naming the cycle.
func checkCycles(ps []project.Project, index map[string]int) error {
	const (
		unseen = iota
		visiting
		finished
	)
	state := make([]int, len(ps))
	var path []string
	var visit func(i int) error
	visit = func(i int) error {
		switch state[i] {
		case visiting:
			start := 0
			for k, n := range path {
				if n == ps[i].Name {
					start = k
				}
			}
			return fmt.Errorf("projects depend on each other: %s", strings.Join(append(path[start:], ps[i].Name), " -> "))
		case finished:
			return nil
		}
		state[i] = visiting
		path = append(path, ps[i].Name)
		for _, d := range ps[i].DependsOn {
			if j, ok := index[d]; ok {
				if err := visit(j); err != nil {
					return err
				}
			}
		}
		path = path[:len(path)-1]
		state[i] = finished
		return nil
	}
	for i := range ps {
		if err := visit(i); err != nil {
			return err
		}
	}
	return nil
}
