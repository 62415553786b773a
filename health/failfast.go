package health

import (
	"strings"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// Signal is what a pod shows that waiting will not heal: the pod, the
// container at fault and the kubelet's or scheduler's reason.
type Signal struct {
	Pod       string `json:"pod"`
	Container string `json:"container,omitempty"`
	// Init is true when Container is an init container.
	Init    bool   `json:"init,omitempty"`
	Reason  string `json:"reason"`
	Message string `json:"message,omitempty"`
	// Restarts is the container's restart count.
	Restarts int64 `json:"restarts,omitempty"`
	// ExitCode and TerminationMessage are the last termination's, when
	// the container ended.
	ExitCode           int64  `json:"exitCode,omitempty"`
	TerminationMessage string `json:"terminationMessage,omitempty"`
	// Previous is true when the log to read is the previous instance's
	// (the container restarted: a crash loop, an OOM kill).
	Previous bool `json:"previous,omitempty"`
}

// The time a signal must last before it fails the wait.
const (
	// failFastPull: an image pull failure seen for 10 s with the kubelet
	// backing off (ImagePullBackOff) at least once: the pull was retried
	// and failed again. A first ErrImagePull alone heals often (a
	// registry's hiccup).
	failFastPull = 10 * time.Second
	// failFastConfig: CreateContainerConfigError (a Secret or key
	// missing) for 10 s: a Secret written in the same apply reaches the
	// kubelet's cache well before.
	failFastConfig = 10 * time.Second
	// failFastUnschedulable: Unschedulable for 30 s, naming insufficient
	// resources or a selector no node matches (a scale-up may still
	// come; other reasons are left to the timeout).
	failFastUnschedulable = 30 * time.Second
)

// candidate is a signal and how long it must persist to be fatal.
type candidate struct {
	Signal
	grace time.Duration
	// backoff: the kubelet backed off (ImagePullBackOff) in this look.
	backoff bool
	// key identifies the signal across looks: pod, container, class.
	key string
	// ownerDecides: the pod of a Job failed; the Job retries it until its
	// backoffLimit, and its own Failed condition (BackoffLimitExceeded)
	// fails the wait. The signal is a cause, never fatal by itself.
	ownerDecides bool
}

// classifyPod returns the signals pod shows, in the order of its
// containers, init containers first. A pod being deleted shows none.
// Which of them fail the wait, and when, is failFast's: a candidate with
// grace 0 fails at once.
func classifyPod(pod *unstructured.Unstructured) []candidate {
	if pod.GetDeletionTimestamp() != nil {
		return nil
	}
	obj := pod.Object
	name := pod.GetName()
	var out []candidate
	phaseFailed := healthString(obj, "status", "phase") == "Failed"
	ownerDecides := phaseFailed && healthOwnedByJob(pod)
	add := func(s Signal, grace time.Duration, class string, backoff bool) {
		out = append(out, candidate{Signal: s, grace: grace, backoff: backoff, key: name + "/" + s.Container + "/" + class, ownerDecides: ownerDecides})
	}
	for _, field := range []string{"initContainerStatuses", "containerStatuses"} {
		init := field == "initContainerStatuses"
		statuses, _, _ := unstructured.NestedSlice(obj, "status", field)
		for _, raw := range statuses {
			cs, _ := raw.(map[string]any)
			if cs == nil {
				continue
			}
			s := Signal{Pod: name, Init: init, Restarts: healthInt(cs, 0, "restartCount")}
			s.Container, _ = cs["name"].(string)
			last, _, _ := unstructured.NestedMap(cs, "lastState", "terminated")
			if last != nil {
				s.ExitCode = healthInt(last, 0, "exitCode")
				s.TerminationMessage = healthString(last, "message")
			}
			if reason := healthString(cs, "state", "waiting", "reason"); reason != "" {
				s.Reason, s.Message = reason, healthString(cs, "state", "waiting", "message")
				switch reason {
				case "ErrImagePull", "ImagePullBackOff":
					add(s, failFastPull, "pull", reason == "ImagePullBackOff")
					continue
				case "InvalidImageName", "ErrImageNeverPull":
					add(s, 0, reason, false)
					continue
				case "CreateContainerConfigError", "CreateContainerError":
					add(s, failFastConfig, reason, false)
					continue
				case "CrashLoopBackOff":
					if last != nil && healthString(last, "reason") == "OOMKilled" {
						s.Reason = "OOMKilled"
						s.Message = healthJoin("CrashLoopBackOff", s.Message)
					}
					s.Previous = true
					add(s, 0, "crash", false)
					continue
				}
			}
			if term, _, _ := unstructured.NestedMap(cs, "state", "terminated"); term != nil {
				code := healthInt(term, 0, "exitCode")
				reason := healthString(term, "reason")
				if code == 0 && reason != "OOMKilled" {
					continue
				}
				s.ExitCode, s.TerminationMessage = code, healthString(term, "message")
				s.Reason = reason
				if s.Reason == "" || s.Reason == "Error" {
					s.Reason = "Error"
					if init {
						s.Reason = "InitContainerFailed"
					}
				}
				// Ended and not restarted yet: fatal when the pod failed
				// (restartPolicy Never) or the container already
				// restarted (it will crash loop).
				if phaseFailed || s.Restarts > 0 {
					add(s, 0, "terminated", false)
				}
				continue
			}
			// Running (or waiting benignly) after an OOM kill or a failed
			// init run: the kubelet restarted it.
			if last != nil && s.Restarts > 0 {
				switch {
				case healthString(last, "reason") == "OOMKilled":
					s.Reason, s.Previous = "OOMKilled", true
					add(s, 0, "oom", false)
				case init && s.ExitCode != 0:
					s.Reason, s.Previous = "InitContainerFailed", true
					add(s, 0, "init", false)
				}
			}
		}
	}
	if len(out) == 0 && phaseFailed {
		add(Signal{Pod: name, Reason: healthJoin(healthString(obj, "status", "reason")), Message: healthString(obj, "status", "message")}, 0, "failed", false)
		if out[0].Reason == "" {
			out[0].Reason = "PodFailed"
		}
	}
	if c, ok := healthFindCondition(pod, "PodScheduled"); ok && c.status == "False" && c.reason == "Unschedulable" && healthUnschedulableForGood(c.message) {
		add(Signal{Pod: name, Reason: "FailedScheduling", Message: c.message}, failFastUnschedulable, "unschedulable", false)
	}
	return out
}

// healthOwnedByJob reports whether a Job controls pod.
func healthOwnedByJob(pod *unstructured.Unstructured) bool {
	for _, o := range pod.GetOwnerReferences() {
		if o.Kind == "Job" && strings.HasPrefix(o.APIVersion, "batch/") {
			return true
		}
	}
	return false
}

// healthUnschedulableForGood reports whether the scheduler's message names
// a cause that waiting is unlikely to heal: insufficient resources, or a
// node selector or affinity no node matches.
func healthUnschedulableForGood(msg string) bool {
	m := strings.ToLower(msg)
	return strings.Contains(m, "insufficient ") || strings.Contains(m, "didn't match pod's node affinity/selector") ||
		strings.Contains(m, "didn't match node selector") || strings.Contains(m, "node(s) didn't match")
}

// signalTracker remembers when each candidate was first seen and whether
// the kubelet backed off since, across the looks of one wait.
type signalTracker struct {
	first   map[string]time.Time
	backoff map[string]bool
	now     func() time.Time
}

func newSignalTracker() *signalTracker {
	return &signalTracker{first: map[string]time.Time{}, backoff: map[string]bool{}, now: time.Now}
}

// fatal returns the first signal of pods that fails the wait now: one
// whose grace has passed since it was first seen (an image pull failure
// also needs a back-off seen). ok is false when none does yet.
func (t *signalTracker) fatal(pods []unstructured.Unstructured) (Signal, bool) {
	now := t.now()
	var found *Signal
	for i := range pods {
		for _, c := range classifyPod(&pods[i]) {
			first, seen := t.first[c.key]
			if !seen {
				first = now
				t.first[c.key] = now
			}
			if c.backoff {
				t.backoff[c.key] = true
			}
			if found != nil || c.ownerDecides || now.Sub(first) < c.grace {
				continue
			}
			if c.key[strings.LastIndexByte(c.key, '/')+1:] == "pull" && !t.backoff[c.key] {
				continue
			}
			s := c.Signal
			found = &s
		}
	}
	if found == nil {
		return Signal{}, false
	}
	return *found, true
}
