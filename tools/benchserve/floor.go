package main

import (
	"context"
	"sync"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/benchkit"
	"github.com/kubeplan/kubeplan/internal/kube"
)

// floorSample is the client-go loop's cost.
type floorSample struct {
	Wall, CPU, ServerCPU time.Duration
	Requests             int
}

// floor times the reads a no-op round cannot do without, with client-go
// and nothing else: per project the parent (GET) and its members (LIST
// by the ApplySet label), concurrency projects at a time. Best of 3.
func floor(c *kube.Client, s spec, concurrency, serverPID int) (floorSample, error) {
	cms := schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	var best floorSample
	for range 3 {
		before := c.Requests.Total()
		var firstErr error
		var mu sync.Mutex
		sample, err := benchkit.MeasureSelf(serverPID, func() error {
			sem := make(chan struct{}, concurrency)
			var wg sync.WaitGroup
			for i := range s.projects {
				wg.Go(func() {
					sem <- struct{}{}
					defer func() { <-sem }()
					ctx := context.Background()
					ns := s.namespace(i)
					parent, err := c.Dynamic.Resource(cms).Namespace(ns).Get(ctx, "set", metav1.GetOptions{})
					if err == nil {
						id := parent.GetLabels()[applyset.LabelID]
						_, err = c.Dynamic.Resource(cms).Namespace(ns).List(ctx, metav1.ListOptions{LabelSelector: applyset.LabelPartOf + "=" + id})
					}
					if err != nil {
						mu.Lock()
						firstErr = err
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			return firstErr
		})
		if err != nil {
			return floorSample{}, err
		}
		f := floorSample{Wall: sample.Wall, CPU: sample.CPU, ServerCPU: sample.ServerCPU, Requests: c.Requests.Total() - before}
		if best.Wall == 0 || f.Wall < best.Wall {
			best = f
		}
	}
	return best, nil
}
