package main

import (
	"fmt"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Image tags that make a simulated container fail after it started.
const (
	crashTag = "crashloop" // prints its args and exits 1
	oomTag   = "oomkilled" // prints its args and is killed for memory (exit 137)
)

// Timings of a failing container. The kubelet's back-off starts at 10s and
// doubles up to 5 minutes; the simulated node caps it at crashBackOffCap so
// that tests never wait minutes.
const (
	crashRunFor      = time.Second      // how long a failing container runs before it exits
	crashBackOffBase = 10 * time.Second // the first back-off
	crashBackOffCap  = 40 * time.Second // the longest back-off
)

// Bounds of a termination message taken from the log (FallbackToLogsOnError), as the kubelet's.
const (
	termMessageLines = 80
	termMessageBytes = 2048
)

// failure is how a container with a failing image tag ends.
type failure struct {
	exitCode int32
	reason   string
}

// failureOf returns how a container of image ends, and false if it does not fail.
func failureOf(image string) (failure, bool) {
	switch imageTag(image) {
	case crashTag:
		return failure{exitCode: 1, reason: "Error"}, true
	case oomTag:
		return failure{exitCode: 137, reason: "OOMKilled"}, true
	}
	return failure{}, false
}

// crashBackOff is the back-off before the restart that follows restarts earlier ones (restarts >= 1).
func crashBackOff(restarts int32) time.Duration {
	d := crashBackOffBase
	for i := int32(1); i < restarts && d < crashBackOffCap; i++ {
		d *= 2
	}
	return min(d, crashBackOffCap)
}

// podRef is how the kubelet names a pod in messages: name_namespace(uid).
func podRef(pod *v1.Pod) string {
	return fmt.Sprintf("%s_%s(%s)", pod.Name, pod.Namespace, pod.UID)
}

// instanceID is the container ID of one run (restart) of a container.
func instanceID(pod *v1.Pod, name string, restarts int32) string {
	return "containerd://" + digest(string(pod.UID), name, fmt.Sprint(restarts))
}

// crashStep moves a failing container one step along the kubelet's restart
// loop, from its last reported status prev (nil before it first ran), at now.
// The container runs for crashRunFor and exits with f; with restartPolicy
// Never it stays terminated. Otherwise its first exit is restarted at once (as
// the kubelet does) and later ones after crashBackOff, waiting with reason
// CrashLoopBackOff meanwhile. logTail is the termination message when the
// container asks for FallbackToLogsOnError. It returns the new status and
// when to look again (0: never).
func crashStep(pod *v1.Pod, c v1.Container, f failure, prev *v1.ContainerStatus, logTail string, now time.Time) (v1.ContainerStatus, time.Duration) {
	cs := v1.ContainerStatus{Name: c.Name, Image: c.Image, ImageID: imageID(c.Image), Started: ptrTo(false)}
	if prev != nil {
		cs.RestartCount, cs.LastTerminationState = prev.RestartCount, prev.LastTerminationState
	}
	start := func(at time.Time) (v1.ContainerStatus, time.Duration) {
		cs.ContainerID = instanceID(pod, c.Name, cs.RestartCount)
		cs.State = v1.ContainerState{Running: &v1.ContainerStateRunning{StartedAt: metav1.NewTime(at)}}
		cs.Started = ptrTo(true)
		return cs, max(crashRunFor-now.Sub(at), 10*time.Millisecond)
	}
	switch {
	case prev == nil || prev.State.Running == nil && prev.State.Terminated == nil && prev.LastTerminationState.Terminated == nil:
		return start(now)
	case prev.State.Terminated != nil:
		cs.State, cs.ContainerID = prev.State, prev.ContainerID
		return cs, 0
	case prev.State.Running != nil:
		started := prev.State.Running.StartedAt.Time
		if now.Sub(started) < crashRunFor {
			cs.State, cs.ContainerID, cs.Started = prev.State, prev.ContainerID, ptrTo(true)
			return cs, crashRunFor - now.Sub(started)
		}
		finished := started.Add(crashRunFor)
		term := &v1.ContainerStateTerminated{
			ExitCode: f.exitCode, Reason: f.reason, ContainerID: prev.ContainerID,
			StartedAt: prev.State.Running.StartedAt, FinishedAt: metav1.NewTime(finished),
		}
		if c.TerminationMessagePolicy == v1.TerminationMessageFallbackToLogsOnError {
			term.Message = logTail
		}
		if pod.Spec.RestartPolicy == v1.RestartPolicyNever {
			cs.State, cs.ContainerID = v1.ContainerState{Terminated: term}, prev.ContainerID
			return cs, 0
		}
		cs.LastTerminationState = v1.ContainerState{Terminated: term}
		if cs.RestartCount == 0 {
			cs.RestartCount = 1
			return start(now)
		}
		return backOff(pod, c, cs, now)
	default: // waiting in back-off
		return backOff(pod, c, cs, now)
	}
}

// backOff keeps cs waiting in CrashLoopBackOff until its back-off since the last exit has passed, then restarts it.
func backOff(pod *v1.Pod, c v1.Container, cs v1.ContainerStatus, now time.Time) (v1.ContainerStatus, time.Duration) {
	wait := crashBackOff(cs.RestartCount)
	var finished time.Time
	if t := cs.LastTerminationState.Terminated; t != nil {
		finished = t.FinishedAt.Time
	}
	if left := wait - now.Sub(finished); left > 0 {
		cs.State = v1.ContainerState{Waiting: &v1.ContainerStateWaiting{
			Reason:  "CrashLoopBackOff",
			Message: fmt.Sprintf("back-off %s restarting failed container=%s pod=%s", wait, c.Name, podRef(pod)),
		}}
		return cs, left
	}
	cs.RestartCount++
	cs.ContainerID = instanceID(pod, c.Name, cs.RestartCount)
	cs.State = v1.ContainerState{Running: &v1.ContainerStateRunning{StartedAt: metav1.NewTime(now)}}
	cs.Started = ptrTo(true)
	return cs, crashRunFor
}

// logTail is the end of a log as the kubelet keeps it for a termination message.
func logTail(lines []string) string {
	if len(lines) > termMessageLines {
		lines = lines[len(lines)-termMessageLines:]
	}
	s := strings.Join(lines, "\n")
	if len(lines) > 0 {
		s += "\n"
	}
	if len(s) > termMessageBytes {
		s = s[len(s)-termMessageBytes:]
	}
	return s
}
