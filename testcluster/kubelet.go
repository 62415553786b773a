package main

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	corelisters "k8s.io/client-go/listers/core/v1"
	"k8s.io/client-go/tools/cache"
	"k8s.io/client-go/util/workqueue"
	"k8s.io/klog/v2"
)

// kubelet simulates the scheduler and the kubelet of one node: it binds every
// unscheduled pod to the node and reports the pods on it running, completed
// (restartPolicy Never/OnFailure) or stuck pulling an image (tag doesnotexist).
// Without real containers, pods being deleted are removed at once.
type kubelet struct {
	client kubernetes.Interface
	pods   corelisters.PodLister
	queue  workqueue.TypedRateLimitingInterface[string]
	nextIP atomic.Uint32
}

const kubeletWorkers = 4

// runKubelet runs the simulated node until ctx ends.
func runKubelet(ctx context.Context, client kubernetes.Interface) error {
	if err := registerNode(ctx, client); err != nil {
		return err
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	informer := factory.Core().V1().Pods()
	k := &kubelet{
		client: client,
		pods:   informer.Lister(),
		queue: workqueue.NewTypedRateLimitingQueue(
			workqueue.NewTypedItemExponentialFailureRateLimiter[string](50*time.Millisecond, 5*time.Second)),
	}
	defer k.queue.ShutDown()
	enqueue := func(obj any) {
		if key, err := cache.MetaNamespaceKeyFunc(obj); err == nil {
			k.queue.Add(key)
		}
	}
	if _, err := informer.Informer().AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    enqueue,
		UpdateFunc: func(_, obj any) { enqueue(obj) },
	}); err != nil {
		return err
	}
	factory.Start(ctx.Done())
	defer factory.Shutdown()
	if !cache.WaitForCacheSync(ctx.Done(), informer.Informer().HasSynced) {
		return ctx.Err()
	}
	for range kubeletWorkers {
		go func() {
			for k.processNext(ctx) {
			}
		}()
	}
	<-ctx.Done()
	return nil
}

func (k *kubelet) processNext(ctx context.Context) bool {
	key, quit := k.queue.Get()
	if quit {
		return false
	}
	defer k.queue.Done(key)
	retry, err := k.sync(ctx, key)
	switch {
	case err != nil:
		if ctx.Err() == nil {
			klog.FromContext(ctx).V(2).Info("simulated kubelet: retrying pod", "pod", key, "err", err)
		}
		k.queue.AddRateLimited(key)
	case retry > 0:
		k.queue.Forget(key)
		k.queue.AddAfter(key, retry)
	default:
		k.queue.Forget(key)
	}
	return true
}

// sync moves one pod a step along its life; it returns when to look again.
func (k *kubelet) sync(ctx context.Context, key string) (time.Duration, error) {
	ns, name, err := cache.SplitMetaNamespaceKey(key)
	if err != nil {
		return 0, nil
	}
	pod, err := k.pods.Pods(ns).Get(name)
	if apierrors.IsNotFound(err) {
		return 0, nil
	}
	if err != nil {
		return 0, err
	}
	pods := k.client.CoreV1().Pods(ns)
	switch {
	case pod.DeletionTimestamp != nil:
		if pod.Spec.NodeName != nodeName || (pod.DeletionGracePeriodSeconds != nil && *pod.DeletionGracePeriodSeconds == 0) {
			return 0, nil
		}
		err := pods.Delete(ctx, name, metav1.DeleteOptions{
			GracePeriodSeconds: ptrTo[int64](0),
			Preconditions:      &metav1.Preconditions{UID: &pod.UID},
		})
		if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
			return 0, nil
		}
		return 0, err
	case pod.Spec.NodeName == "":
		if len(pod.Spec.SchedulingGates) > 0 {
			return 0, nil
		}
		err := pods.Bind(ctx, &v1.Binding{
			ObjectMeta: metav1.ObjectMeta{Name: name, Namespace: ns, UID: pod.UID},
			Target:     v1.ObjectReference{Kind: "Node", Name: nodeName},
		}, metav1.CreateOptions{})
		if apierrors.IsConflict(err) || apierrors.IsNotFound(err) {
			return 0, nil // bound meanwhile, or gone
		}
		return 0, err
	case pod.Spec.NodeName != nodeName:
		return 0, nil
	case pod.Status.Phase == v1.PodSucceeded || pod.Status.Phase == v1.PodFailed:
		return 0, nil
	}

	phase, retry := desiredPhase(pod, time.Now())
	ip := pod.Status.PodIP
	if ip == "" {
		ip = k.allocateIP()
	}
	want := podStatus(pod, phase, ip, nodeIP, metav1.Now())
	if statusSummary(&want) == statusSummary(&pod.Status) {
		return retry, nil
	}
	updated := pod.DeepCopy()
	updated.Status = want
	if _, err := pods.UpdateStatus(ctx, updated, metav1.UpdateOptions{}); err != nil {
		if apierrors.IsNotFound(err) {
			return 0, nil
		}
		return 0, err
	}
	return retry, nil
}

// allocateIP hands out pod addresses from 10.244.0.0/16, as a CNI plugin would.
func (k *kubelet) allocateIP() string {
	n := k.nextIP.Add(1)%65000 + 2
	return fmt.Sprintf("10.244.%d.%d", n/256, n%256)
}
