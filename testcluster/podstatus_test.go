package main

import (
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestImageTag(t *testing.T) {
	for image, want := range map[string]string{
		"nginx":                             "",
		"nginx:1.27":                        "1.27",
		"nginx:doesnotexist":                "doesnotexist",
		"registry:5000/team/app":            "",
		"registry:5000/team/app:v2":         "v2",
		"ghcr.io/a/b:doesnotexist@sha256:0": "doesnotexist",
	} {
		if got := imageTag(image); got != want {
			t.Errorf("imageTag(%q) = %q, want %q", image, got, want)
		}
	}
}

func pod(restart v1.RestartPolicy, images ...string) *v1.Pod {
	p := &v1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "p", UID: "u"}, Spec: v1.PodSpec{RestartPolicy: restart}}
	for i, image := range images {
		p.Spec.Containers = append(p.Spec.Containers, v1.Container{Name: string(rune('a' + i)), Image: image})
	}
	return p
}

func TestRunningPod(t *testing.T) {
	p := pod(v1.RestartPolicyAlways, "nginx:1.27")
	phase, retry := desiredPhase(p, time.Now())
	if phase != phaseRunning || retry != 0 {
		t.Fatalf("desiredPhase = %v, %v; want running, 0", phase, retry)
	}
	st := statusOf(p, phase, "10.244.0.2", nodeIP, metav1.Now())
	cs := st.ContainerStatuses[0]
	if st.Phase != v1.PodRunning || !cs.Ready || cs.State.Running == nil || cs.ImageID == "" || !*cs.Started {
		t.Errorf("status not running and ready: %+v", st)
	}
	for _, c := range st.Conditions {
		if c.Status != v1.ConditionTrue {
			t.Errorf("condition %s is %s", c.Type, c.Status)
		}
	}
}

func TestBadImageWaits(t *testing.T) {
	p := pod(v1.RestartPolicyAlways, "nginx:1.27", "nginx:doesnotexist")
	phase, _ := desiredPhase(p, time.Now())
	st := statusOf(p, phase, "10.244.0.2", nodeIP, metav1.Now())
	if st.Phase != v1.PodPending {
		t.Errorf("phase %s, want Pending", st.Phase)
	}
	w := st.ContainerStatuses[1].State.Waiting
	if w == nil || w.Reason != "ImagePullBackOff" {
		t.Errorf("bad container state %+v, want waiting ImagePullBackOff", st.ContainerStatuses[1].State)
	}
	if st.ContainerStatuses[0].Ready {
		t.Error("good container of a stalled pod reported ready")
	}
}

func TestJobPodCompletes(t *testing.T) {
	p := pod(v1.RestartPolicyNever, "busybox")
	phase, retry := desiredPhase(p, time.Now())
	if phase != phaseRunning || retry != completeAfter {
		t.Fatalf("first: %v, %v; want running, %v", phase, retry, completeAfter)
	}
	p.Status = statusOf(p, phase, "10.244.0.2", nodeIP, metav1.NewTime(time.Now().Add(-2*completeAfter)))
	phase, _ = desiredPhase(p, time.Now())
	if phase != phaseCompleted {
		t.Fatalf("after %v: %v, want completed", 2*completeAfter, phase)
	}
	st := statusOf(p, phase, "10.244.0.2", nodeIP, metav1.Now())
	term := st.ContainerStatuses[0].State.Terminated
	if st.Phase != v1.PodSucceeded || term == nil || term.ExitCode != 0 {
		t.Errorf("status %+v, want Succeeded with exit 0", st)
	}
}

func TestSummaryIgnoresTimes(t *testing.T) {
	p := pod(v1.RestartPolicyAlways, "nginx")
	a := statusOf(p, phaseRunning, "10.244.0.2", nodeIP, metav1.Now())
	p.Status = a
	b := statusOf(p, phaseRunning, "10.244.0.2", nodeIP, metav1.NewTime(time.Now().Add(time.Hour)))
	if statusSummary(&a) != statusSummary(&b) {
		t.Errorf("summaries differ:\n%s\n%s", statusSummary(&a), statusSummary(&b))
	}
}

// statusOf is podStatus for pods without prepared containers.
func statusOf(p *v1.Pod, phase podPhase, podIP, hostIP string, now metav1.Time) v1.PodStatus {
	st, _ := podStatus(p, phase, podIP, hostIP, now, nil)
	return st
}
