package main

import (
	"context"
	"fmt"
	"sync"
	"time"

	v1 "k8s.io/api/core/v1"
	eventsv1 "k8s.io/api/events/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// Reporters of the simulated node's events, as the real components name themselves.
const (
	kubeletReporter   = "kubelet"
	schedulerReporter = "default-scheduler"
)

// podEvent is one event about a pod that the node or the scheduler reports.
type podEvent struct {
	reporter  string // kubeletReporter or schedulerReporter
	container string // the container it is about ("" for the pod)
	eventType string // v1.EventTypeNormal or v1.EventTypeWarning
	reason    string
	action    string
	note      string
}

// recorder writes events through the events.k8s.io/v1 API, each distinct one
// once per pod: the simulated node does not repeat itself as the kubelet does.
type recorder struct {
	client kubernetes.Interface
	mu     sync.Mutex
	sent   map[string]bool
}

func newRecorder(client kubernetes.Interface) *recorder {
	return &recorder{client: client, sent: map[string]bool{}}
}

// record writes the events not yet written for pod; a failed write is tried again on the next call.
func (r *recorder) record(ctx context.Context, pod *v1.Pod, events ...podEvent) {
	for _, e := range events {
		key := fmt.Sprintf("%s|%s|%s|%s|%s|%s", pod.UID, e.reporter, e.container, e.reason, e.eventType, e.note)
		r.mu.Lock()
		done := r.sent[key]
		r.sent[key] = true
		r.mu.Unlock()
		if done {
			continue
		}
		if err := r.write(ctx, pod, e); err != nil {
			r.mu.Lock()
			delete(r.sent, key)
			r.mu.Unlock()
			klog.FromContext(ctx).V(2).Info("simulated node: writing event", "pod", klog.KObj(pod), "reason", e.reason, "err", err)
		}
	}
}

// forget drops what was recorded for a pod that is gone.
func (r *recorder) forget(uid string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	for key := range r.sent {
		if len(key) > len(uid) && key[:len(uid)+1] == uid+"|" {
			delete(r.sent, key)
		}
	}
}

func (r *recorder) write(ctx context.Context, pod *v1.Pod, e podEvent) error {
	now := time.Now()
	instance := nodeName
	if e.reporter == schedulerReporter {
		instance = schedulerReporter + "-" + nodeName
	}
	ref := v1.ObjectReference{
		Kind: "Pod", APIVersion: "v1", Namespace: pod.Namespace, Name: pod.Name,
		UID: pod.UID, ResourceVersion: pod.ResourceVersion,
	}
	if e.container != "" {
		ref.FieldPath = containerFieldPath(pod, e.container)
	}
	ev := &eventsv1.Event{
		ObjectMeta:          metav1.ObjectMeta{Name: fmt.Sprintf("%s.%x", pod.Name, now.UnixNano()), Namespace: pod.Namespace},
		EventTime:           metav1.NewMicroTime(now),
		ReportingController: e.reporter,
		ReportingInstance:   instance,
		Action:              e.action,
		Reason:              e.reason,
		Regarding:           ref,
		Note:                e.note,
		Type:                e.eventType,
	}
	_, err := r.client.EventsV1().Events(pod.Namespace).Create(ctx, ev, metav1.CreateOptions{})
	return err
}

// containerFieldPath is how an event points at a container: spec.containers{NAME}.
func containerFieldPath(pod *v1.Pod, name string) string {
	for _, c := range pod.Spec.InitContainers {
		if c.Name == name {
			return fmt.Sprintf("spec.initContainers{%s}", name)
		}
	}
	return fmt.Sprintf("spec.containers{%s}", name)
}

// kubeletEvents are the events the kubelet reports for the container statuses in st.
func kubeletEvents(pod *v1.Pod, st *v1.PodStatus) []podEvent {
	var out []podEvent
	ev := func(container, eventType, reason, action, note string) {
		out = append(out, podEvent{kubeletReporter, container, eventType, reason, action, note})
	}
	for _, list := range [][]v1.ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses} {
		for _, cs := range list {
			w := cs.State.Waiting
			switch {
			case w != nil && w.Reason == "ImagePullBackOff":
				ev(cs.Name, v1.EventTypeNormal, "Pulling", "Pulling", fmt.Sprintf("Pulling image %q", cs.Image))
				ev(cs.Name, v1.EventTypeWarning, "Failed", "Pulling", pullError(cs.Image))
				ev(cs.Name, v1.EventTypeWarning, "Failed", "Pulling", "Error: ErrImagePull")
				ev(cs.Name, v1.EventTypeNormal, "BackOff", "Pulling", fmt.Sprintf("Back-off pulling image %q", cs.Image))
				ev(cs.Name, v1.EventTypeWarning, "Failed", "Pulling", "Error: ImagePullBackOff")
			case w != nil && w.Reason == "InvalidImageName":
				ev(cs.Name, v1.EventTypeWarning, "InspectFailed", "Pulling", w.Message)
				ev(cs.Name, v1.EventTypeWarning, "Failed", "Pulling", "Error: InvalidImageName")
			case w != nil && w.Reason == "CreateContainerConfigError":
				ev(cs.Name, v1.EventTypeWarning, "Failed", "Creating", "Error: "+w.Message)
			case w != nil && w.Reason == "CrashLoopBackOff":
				ev(cs.Name, v1.EventTypeWarning, "BackOff", "Starting",
					fmt.Sprintf("Back-off restarting failed container %s in pod %s", cs.Name, podRef(pod)))
			}
		}
	}
	return out
}

// pullError is what containerd reports for an image that does not exist.
func pullError(image string) string {
	return fmt.Sprintf("Failed to pull image %q: rpc error: code = NotFound desc = failed to pull and unpack image %q: %s: not found", image, image, image)
}
