package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/kubernetes/pkg/util/parsers"
)

// badImageTag is the image tag that the simulated node cannot pull.
const badImageTag = "doesnotexist"

// completeAfter is how long a pod that may finish (restartPolicy Never or
// OnFailure) runs before its containers exit 0.
const completeAfter = time.Second

// imageTag returns the tag of an image reference ("" when it has none).
func imageTag(image string) string {
	if i := strings.Index(image, "@"); i >= 0 {
		image = image[:i]
	}
	if i := strings.LastIndex(image, "/"); i >= 0 {
		image = image[i+1:]
	}
	if i := strings.LastIndex(image, ":"); i >= 0 {
		return image[i+1:]
	}
	return ""
}

// pullable reports whether the node can pull image: its name parses and
// its tag is not badImageTag.
func pullable(image string) bool { return imageTag(image) != badImageTag && invalidImage(image) == "" }

// invalidImage is the kubelet's message for an image name that does not
// parse, "" for one that does: the kubelet's own parser, and its wording
// (pkg/kubelet/images EnsureImageExists, reason InvalidImageName).
func invalidImage(image string) string {
	if _, _, _, err := parsers.ParseImageName(image); err != nil {
		return fmt.Sprintf("Failed to apply default image tag %q: %v", image, err)
	}
	return ""
}

func digest(parts ...string) string {
	sum := sha256.Sum256([]byte(strings.Join(parts, "\x00")))
	return hex.EncodeToString(sum[:])
}

// imageID is what a container runtime reports for a pulled image: repository@sha256:...
func imageID(image string) string {
	repo := image
	if i := strings.Index(repo, "@"); i >= 0 {
		return image
	}
	if i := strings.LastIndex(repo, ":"); i > strings.LastIndex(repo, "/") {
		repo = repo[:i]
	}
	return repo + "@sha256:" + digest(image)
}

// podPhase is the simulated node's view of where a pod is in its life.
type podPhase int

const (
	phasePullBackOff podPhase = iota // an image cannot be pulled: Pending, waiting
	phaseRunning                     // all containers running and ready
	phaseCompleted                   // all containers exited 0: Succeeded
)

// configRetry is how often the node tries again to start a container whose
// configuration (a Secret or ConfigMap it reads) is missing.
const configRetry = 2 * time.Second

// prepared is what the node worked out for a container before starting it.
type prepared struct {
	configErr string   // why its environment cannot be built: CreateContainerConfigError; "" if it can
	log       []string // what the container prints
}

// desiredPhase decides what the node shows for pod at now. A pod that may
// finish completes once it has been running for completeAfter; retry says
// when to look at it again (0: no need). A pod with a failing container
// (crashloop, oomkilled) never completes: its containers decide.
func desiredPhase(pod *v1.Pod, now time.Time) (phase podPhase, retry time.Duration) {
	for _, c := range append(append([]v1.Container{}, pod.Spec.InitContainers...), pod.Spec.Containers...) {
		if !pullable(c.Image) {
			return phasePullBackOff, 0
		}
	}
	for _, c := range pod.Spec.Containers {
		if _, failing := failureOf(c.Image); failing {
			return phaseRunning, 0
		}
	}
	if pod.Spec.RestartPolicy == v1.RestartPolicyAlways || pod.Spec.RestartPolicy == "" {
		return phaseRunning, 0
	}
	if pod.Status.Phase != v1.PodRunning || pod.Status.StartTime == nil {
		return phaseRunning, completeAfter
	}
	if left := completeAfter - now.Sub(pod.Status.StartTime.Time); left > 0 {
		return phaseRunning, left
	}
	return phaseCompleted, 0
}

// podStatus builds the status the node reports for pod in phase, with what
// the node prepared for each container (by name; missing entries are fine).
// It returns when to look again for a container's sake (0: no need).
func podStatus(pod *v1.Pod, phase podPhase, podIP, hostIP string, now metav1.Time, prep map[string]prepared) (v1.PodStatus, time.Duration) {
	st := v1.PodStatus{
		HostIP:             hostIP,
		HostIPs:            []v1.HostIP{{IP: hostIP}},
		PodIP:              podIP,
		PodIPs:             []v1.PodIP{{IP: podIP}},
		StartTime:          pod.Status.StartTime,
		QOSClass:           pod.Status.QOSClass,
		ObservedGeneration: pod.Generation,
	}
	if st.StartTime == nil {
		st.StartTime = &now
	}
	started := *st.StartTime
	var retry time.Duration
	soon := func(d time.Duration) {
		if d > 0 && (retry == 0 || d < retry) {
			retry = d
		}
	}
	// step gives a container that can start its state: a config error, or
	// the restart loop of a failing image; ok is false for a healthy one.
	step := func(c v1.Container, prev *v1.ContainerStatus) (cs v1.ContainerStatus, ok bool) {
		p := prep[c.Name]
		if p.configErr != "" && neverStarted(prev) {
			cs = containerStatus(pod, c, now, started)
			cs.ContainerID = ""
			cs.State = v1.ContainerState{Waiting: &v1.ContainerStateWaiting{Reason: "CreateContainerConfigError", Message: p.configErr}}
			soon(configRetry)
			return cs, true
		}
		f, failing := failureOf(c.Image)
		if !failing {
			return cs, false
		}
		cs, r := crashStep(pod, c, f, prev, logTail(p.log), now.Time)
		soon(r)
		return cs, true
	}

	initDone, failed := true, false
	for _, c := range pod.Spec.InitContainers {
		cs := containerStatus(pod, c, now, started)
		sidecar := c.RestartPolicy != nil && *c.RestartPolicy == v1.ContainerRestartPolicyAlways
		switch {
		case !initDone:
			cs.State = v1.ContainerState{Waiting: &v1.ContainerStateWaiting{Reason: "PodInitializing"}}
		case !pullable(c.Image):
			cs.State = pullBackOff(c.Image)
			initDone = false
		default:
			if s, special := step(c, findStatus(pod.Status.InitContainerStatuses, c.Name)); special {
				cs, initDone = s, false
				failed = failed || cs.State.Terminated != nil
				break
			}
			if sidecar && phase == phaseRunning {
				cs.State = v1.ContainerState{Running: &v1.ContainerStateRunning{StartedAt: started}}
				cs.Ready, cs.Started = true, ptrTo(true)
			} else {
				cs.State = terminated(started, started)
			}
		}
		st.InitContainerStatuses = append(st.InitContainerStatuses, cs)
	}

	var unready []string
	anyStarted, allFailingDone, anyFailing := false, true, false
	for _, c := range pod.Spec.Containers {
		cs := containerStatus(pod, c, now, started)
		switch {
		case !initDone:
			cs.State = v1.ContainerState{Waiting: &v1.ContainerStateWaiting{Reason: "PodInitializing"}}
		case !pullable(c.Image):
			cs.State = pullBackOff(c.Image)
		default:
			if s, special := step(c, findStatus(pod.Status.ContainerStatuses, c.Name)); special {
				// A failing container is never ready, as if its readiness probe failed while it runs.
				cs = s
				if _, failing := failureOf(c.Image); failing {
					anyFailing = true
					allFailingDone = allFailingDone && cs.State.Terminated != nil
				}
				break
			}
			if phase == phaseCompleted {
				cs.State = terminated(started, now)
			} else {
				cs.State = v1.ContainerState{Running: &v1.ContainerStateRunning{StartedAt: started}}
				cs.Ready, cs.Started = phase == phaseRunning, ptrTo(true)
			}
		}
		anyStarted = anyStarted || cs.State.Running != nil || cs.State.Terminated != nil || cs.LastTerminationState.Terminated != nil
		st.ContainerStatuses = append(st.ContainerStatuses, cs)
	}
	// With restartPolicy Never a pod fails once its failing containers have exited; the others stop too.
	if anyFailing && allFailingDone {
		failed = true
		for i := range st.ContainerStatuses {
			if cs := &st.ContainerStatuses[i]; cs.State.Running != nil {
				cs.State, cs.Ready = terminated(started, now), false
			}
		}
	}
	for _, cs := range st.ContainerStatuses {
		if !cs.Ready {
			unready = append(unready, cs.Name)
		}
	}

	switch {
	case failed:
		st.Phase = v1.PodFailed
	case phase == phaseRunning && anyStarted:
		st.Phase = v1.PodRunning
	case phase == phaseCompleted:
		st.Phase = v1.PodSucceeded
	default:
		st.Phase = v1.PodPending
	}

	cond := func(t v1.PodConditionType, ok bool, reason, msg string) v1.PodCondition {
		c := v1.PodCondition{Type: t, Status: v1.ConditionTrue, LastTransitionTime: now, ObservedGeneration: pod.Generation}
		if !ok {
			c.Status, c.Reason, c.Message = v1.ConditionFalse, reason, msg
		}
		// Keep the transition time of a condition that did not change.
		for _, old := range pod.Status.Conditions {
			if old.Type == t && old.Status == c.Status {
				c.LastTransitionTime = old.LastTransitionTime
			}
		}
		return c
	}
	readyReason, readyMsg := "ContainersNotReady", fmt.Sprintf("containers with unready status: [%s]", strings.Join(unready, " "))
	switch {
	case failed:
		readyReason, readyMsg = "PodFailed", ""
	case phase == phaseCompleted:
		readyReason, readyMsg = "PodCompleted", ""
	}
	initReason, initMsg := "", ""
	if !initDone {
		initReason, initMsg = "ContainersNotInitialized", "containers with incomplete status: [init]"
	}
	done := phase == phaseCompleted || failed
	st.Conditions = []v1.PodCondition{
		cond(v1.PodReadyToStartContainers, !done, "", ""),
		cond(v1.PodInitialized, initDone, initReason, initMsg),
		cond(v1.PodReady, len(unready) == 0, readyReason, readyMsg),
		cond(v1.ContainersReady, len(unready) == 0, readyReason, readyMsg),
		cond(v1.PodScheduled, true, "", ""),
	}
	return st, retry
}

// findStatus returns the status of the container named name, or nil.
func findStatus(list []v1.ContainerStatus, name string) *v1.ContainerStatus {
	for i := range list {
		if list[i].Name == name {
			return &list[i]
		}
	}
	return nil
}

// neverStarted says whether a container with status prev has not run yet.
func neverStarted(prev *v1.ContainerStatus) bool {
	return prev == nil || prev.State.Running == nil && prev.State.Terminated == nil && prev.LastTerminationState.Terminated == nil
}

func containerStatus(pod *v1.Pod, c v1.Container, now, started metav1.Time) v1.ContainerStatus {
	cs := v1.ContainerStatus{Name: c.Name, Image: c.Image, Started: ptrTo(false)}
	if pullable(c.Image) {
		cs.ImageID = imageID(c.Image)
		cs.ContainerID = "containerd://" + digest(string(pod.UID), c.Name)
	}
	return cs
}

// pullBackOff is the state of a container whose image the node cannot
// pull: InvalidImageName when its name does not parse (the kubelet does
// not retry it), ImagePullBackOff otherwise.
func pullBackOff(image string) v1.ContainerState {
	if msg := invalidImage(image); msg != "" {
		return v1.ContainerState{Waiting: &v1.ContainerStateWaiting{Reason: "InvalidImageName", Message: msg}}
	}
	return v1.ContainerState{Waiting: &v1.ContainerStateWaiting{
		Reason:  "ImagePullBackOff",
		Message: fmt.Sprintf("Back-off pulling image %q: ErrImagePull: %s: not found", image, image),
	}}
}

func terminated(started, finished metav1.Time) v1.ContainerState {
	return v1.ContainerState{Terminated: &v1.ContainerStateTerminated{
		ExitCode: 0, Reason: "Completed", StartedAt: started, FinishedAt: finished,
	}}
}

func ptrTo[T any](v T) *T { return &v }

// statusSummary is what must match for the node to consider a pod's status up to date.
func statusSummary(st *v1.PodStatus) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s|%s|", st.Phase, st.PodIP)
	for _, list := range [][]v1.ContainerStatus{st.InitContainerStatuses, st.ContainerStatuses} {
		for _, cs := range list {
			state := "none"
			switch {
			case cs.State.Waiting != nil:
				state = "waiting:" + cs.State.Waiting.Reason
			case cs.State.Running != nil:
				state = "running"
			case cs.State.Terminated != nil:
				state = "terminated"
			}
			last := ""
			if t := cs.LastTerminationState.Terminated; t != nil {
				last = t.Reason
			}
			fmt.Fprintf(&b, "%s=%s/%s/%t/%d/%s;", cs.Name, cs.Image, state, cs.Ready, cs.RestartCount, last)
		}
		b.WriteString("|")
	}
	for _, c := range st.Conditions {
		fmt.Fprintf(&b, "%s=%s;", c.Type, c.Status)
	}
	return b.String()
}
