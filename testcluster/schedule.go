package main

import (
	"fmt"
	"sort"
	"strings"

	v1 "k8s.io/api/core/v1"
)

// scheduledResources are the resources the simulated scheduler compares with the node's allocatable.
var scheduledResources = []v1.ResourceName{v1.ResourceCPU, v1.ResourceMemory, v1.ResourceEphemeralStorage}

// podRequests is what a pod asks of a node, as the scheduler counts it: the
// larger of the sum of its containers' requests and any init container's
// request, plus the pod's overhead.
func podRequests(pod *v1.Pod) v1.ResourceList {
	total := v1.ResourceList{}
	for _, c := range pod.Spec.Containers {
		for name, q := range c.Resources.Requests {
			sum := total[name]
			sum.Add(q)
			total[name] = sum
		}
	}
	for _, c := range pod.Spec.InitContainers {
		for name, q := range c.Resources.Requests {
			if cur, ok := total[name]; !ok || q.Cmp(cur) > 0 {
				total[name] = q.DeepCopy()
			}
		}
	}
	for name, q := range pod.Spec.Overhead {
		sum := total[name]
		sum.Add(q)
		total[name] = sum
	}
	return total
}

// unschedulable returns the scheduler's message when pod cannot go on the
// simulated node: a request above the node's allocatable (whatever else runs
// there) or a nodeSelector the node's labels do not match; "" when it fits.
func unschedulable(pod *v1.Pod, node *v1.Node) string {
	for k, v := range pod.Spec.NodeSelector {
		if node.Labels[k] != v {
			// The scheduler's filters stop at the first that fails, and preemption cannot help here.
			return "0/1 nodes are available: 1 node(s) didn't match Pod's node affinity/selector. " +
				"preemption: 0/1 nodes are available: 1 Preemption is not helpful for scheduling."
		}
	}
	var reasons []string
	requests := podRequests(pod)
	for _, name := range scheduledResources {
		want, ok := requests[name]
		if !ok {
			continue
		}
		have := node.Status.Allocatable[name]
		if want.Cmp(have) > 0 {
			reasons = append(reasons, fmt.Sprintf("1 Insufficient %s", name))
		}
	}
	if len(reasons) == 0 {
		return ""
	}
	sort.Strings(reasons)
	return fmt.Sprintf("0/1 nodes are available: %s. preemption: 0/1 nodes are available: 1 No preemption victims found for incoming pod.",
		strings.Join(reasons, ", "))
}
