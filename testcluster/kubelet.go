package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"slices"
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
// pod that fits to the node (others stay Pending with the scheduler's
// FailedScheduling), reports the pods on it running, completed
// (restartPolicy Never/OnFailure), stuck pulling an image (tag doesnotexist),
// crash-looping (tags crashloop, oomkilled) or unable to build a container's
// environment (CreateContainerConfigError), with the events the kubelet
// writes, and serves their logs to the API server. The conventions are in
// README.md. Without real containers, pods being deleted are removed at once.
type kubelet struct {
	client kubernetes.Interface
	pods   corelisters.PodLister
	queue  workqueue.TypedRateLimitingInterface[string]
	nextIP atomic.Uint32
	node   *v1.Node
	reader objectReader
	events *recorder
}

const kubeletWorkers = 4

// runKubelet runs the simulated node until ctx ends; its kubelet API has a
// serving certificate of ca.
func runKubelet(ctx context.Context, client kubernetes.Interface, ca *authority) error {
	listener, err := net.Listen("tcp", net.JoinHostPort(nodeIP, "0"))
	if err != nil {
		return fmt.Errorf("kubelet API: %w", err)
	}
	serveErr := make(chan error, 1)
	go func() { serveErr <- serveLogs(ctx, listener, ca, client) }()
	node, err := registerNode(ctx, client, int32(listener.Addr().(*net.TCPAddr).Port))
	if err != nil {
		return err
	}
	factory := informers.NewSharedInformerFactory(client, 0)
	informer := factory.Core().V1().Pods()
	k := &kubelet{
		client: client,
		pods:   informer.Lister(),
		queue: workqueue.NewTypedRateLimitingQueue(
			workqueue.NewTypedItemExponentialFailureRateLimiter[string](50*time.Millisecond, 5*time.Second)),
		node:   node,
		reader: apiReader{client},
		events: newRecorder(client),
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
		DeleteFunc: func(obj any) {
			if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				obj = tomb.Obj
			}
			if pod, ok := obj.(*v1.Pod); ok {
				k.events.forget(string(pod.UID))
			}
		},
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
	select {
	case <-ctx.Done():
		return nil
	case err := <-serveErr:
		return fmt.Errorf("kubelet API: %w", err)
	}
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
		if msg := unschedulable(pod, k.node); msg != "" {
			return 0, k.reportUnschedulable(ctx, pod, msg)
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
	prep, err := k.prepare(ctx, pod)
	if err != nil {
		return 0, err
	}
	want, containerRetry := podStatus(pod, phase, ip, nodeIP, metav1.Now(), prep)
	if containerRetry > 0 && (retry == 0 || containerRetry < retry) {
		retry = containerRetry
	}
	k.events.record(ctx, pod, kubeletEvents(pod, &want)...)
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

// prepare builds the environment and the log of each of pod's containers,
// the way the kubelet does before it starts one.
func (k *kubelet) prepare(ctx context.Context, pod *v1.Pod) (map[string]prepared, error) {
	prep := map[string]prepared{}
	for _, c := range append(append([]v1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
		env, err := containerEnv(ctx, k.reader, pod, c)
		var config configError
		switch {
		case errors.As(err, &config):
			prep[c.Name] = prepared{configErr: config.msg}
		case err != nil:
			return nil, err
		default:
			prep[c.Name] = prepared{log: containerLog(c, env)}
		}
	}
	return prep, nil
}

// reportUnschedulable does what the scheduler does with a pod that fits no
// node: condition PodScheduled False, reason Unschedulable, and a
// FailedScheduling event.
func (k *kubelet) reportUnschedulable(ctx context.Context, pod *v1.Pod, msg string) error {
	k.events.record(ctx, pod, podEvent{schedulerReporter, "", v1.EventTypeWarning, "FailedScheduling", "Scheduling", msg})
	for _, c := range pod.Status.Conditions {
		if c.Type == v1.PodScheduled && c.Status == v1.ConditionFalse && c.Reason == v1.PodReasonUnschedulable && c.Message == msg {
			return nil
		}
	}
	updated := pod.DeepCopy()
	updated.Status.Phase = v1.PodPending
	updated.Status.Conditions = append(slices.DeleteFunc(updated.Status.Conditions, func(c v1.PodCondition) bool {
		return c.Type == v1.PodScheduled
	}), v1.PodCondition{
		Type: v1.PodScheduled, Status: v1.ConditionFalse, Reason: v1.PodReasonUnschedulable, Message: msg,
		LastTransitionTime: metav1.Now(), LastProbeTime: metav1.Time{}, ObservedGeneration: pod.Generation,
	})
	_, err := k.client.CoreV1().Pods(pod.Namespace).UpdateStatus(ctx, updated, metav1.UpdateOptions{})
	if apierrors.IsNotFound(err) || apierrors.IsConflict(err) {
		return nil
	}
	return err
}

// allocateIP hands out pod addresses from 10.244.0.0/16, as a CNI plugin would.
func (k *kubelet) allocateIP() string {
	n := k.nextIP.Add(1)%65000 + 2
	return fmt.Sprintf("10.244.%d.%d", n/256, n%256)
}
