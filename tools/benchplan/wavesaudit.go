package main

import (
	"context"
	"fmt"
	"os"
	"sync"
	"time"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
)

// auditEvent is an entry of the testcluster's audit log (testcluster/README.md).
type auditEvent = testkube.AuditEvent

// kubeplanWrite is a successful, real (not dry-run) write by kubeplan to an
// object of ns; the benchmark itself only reads.
func kubeplanWrite(e auditEvent, ns string) bool {
	return e.KubeplanWrite() && e.ObjectRef.Namespace == ns
}

// auditSize is the audit log's size now: read from there after a run.
func auditSize(path string) (int64, error) {
	fi, err := os.Stat(path)
	if err != nil {
		return 0, err
	}
	return fi.Size(), nil
}

// availabilityWatch records when each Deployment of a namespace was first
// seen rolled out (observed, updated, ready and available, Available True)
// through a watch, as an observer beside kubeplan sees it.
type availabilityWatch struct {
	mu     sync.Mutex
	seen   map[string]time.Time
	stop   context.CancelFunc
	done   chan struct{}
	errMsg string
}

// watchAvailability starts watching the Deployments of ns.
func watchAvailability(kubeconfig, ns string) (*availabilityWatch, error) {
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		return nil, err
	}
	cs, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithCancel(context.Background())
	w, err := cs.AppsV1().Deployments(ns).Watch(ctx, metav1.ListOptions{})
	if err != nil {
		cancel()
		return nil, err
	}
	a := &availabilityWatch{seen: map[string]time.Time{}, stop: cancel, done: make(chan struct{})}
	go func() {
		defer close(a.done)
		defer w.Stop()
		for ev := range w.ResultChan() {
			at := time.Now()
			if ev.Type == watch.Error {
				if ctx.Err() != nil {
					return // stopped by close
				}
				a.mu.Lock()
				a.errMsg = fmt.Sprintf("watching the Deployments of %s: %v", ns, apierrors.FromObject(ev.Object))
				a.mu.Unlock()
				return
			}
			d, ok := ev.Object.(*appsv1.Deployment)
			if !ok || !rolledOut(d) {
				continue
			}
			a.mu.Lock()
			if _, ok := a.seen[d.Name]; !ok {
				a.seen[d.Name] = at
			}
			a.mu.Unlock()
		}
	}()
	return a, nil
}

// rolledOut is a Deployment whose current generation is observed and all
// of whose replicas are updated, ready and available.
func rolledOut(d *appsv1.Deployment) bool {
	want := int32(1)
	if d.Spec.Replicas != nil {
		want = *d.Spec.Replicas
	}
	s := d.Status
	if s.ObservedGeneration < d.Generation || s.UpdatedReplicas != want || s.ReadyReplicas != want || s.AvailableReplicas != want || s.Replicas != want {
		return false
	}
	for _, c := range s.Conditions {
		if c.Type == appsv1.DeploymentAvailable {
			return c.Status == "True"
		}
	}
	return false
}

// close stops the watch and returns when each Deployment was seen rolled out.
func (a *availabilityWatch) close() (map[string]time.Time, string) {
	a.stop()
	<-a.done
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.seen, a.errMsg
}
