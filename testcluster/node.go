package main

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strings"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/component-base/version"
)

const (
	nodeName = "testcluster-node"
	nodeIP   = "127.0.0.1"
)

// registerNode creates (or refreshes) the simulated node and reports it Ready,
// with room for plenty of pods and its kubelet API on kubeletPort; it returns the node.
func registerNode(ctx context.Context, client kubernetes.Interface, kubeletPort int32) (*v1.Node, error) {
	node := &v1.Node{
		ObjectMeta: metav1.ObjectMeta{
			Name: nodeName,
			Labels: map[string]string{
				"kubernetes.io/hostname": nodeName,
				"kubernetes.io/os":       runtime.GOOS,
				"kubernetes.io/arch":     runtime.GOARCH,
			},
		},
	}
	got, err := client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
	if apierrors.IsAlreadyExists(err) {
		got, err = client.CoreV1().Nodes().Get(ctx, nodeName, metav1.GetOptions{})
	}
	if err != nil {
		return nil, fmt.Errorf("register node: %w", err)
	}
	got.Status = nodeStatus(kubeletPort)
	updated, err := client.CoreV1().Nodes().UpdateStatus(ctx, got, metav1.UpdateOptions{})
	if err != nil {
		return nil, fmt.Errorf("report node status: %w", err)
	}
	return updated, nil
}

// nodeStatus is the node's status: its allocatable (what the simulated
// scheduler compares pods' requests with), Ready, its address and the port of
// its kubelet API, where the API server reads container logs.
func nodeStatus(kubeletPort int32) v1.NodeStatus {
	now := metav1.Now()
	resources := v1.ResourceList{
		v1.ResourceCPU:              resource.MustParse("16"),
		v1.ResourceMemory:           resource.MustParse("64Gi"),
		v1.ResourceEphemeralStorage: resource.MustParse("200Gi"),
		v1.ResourcePods:             resource.MustParse("250"),
	}
	condition := func(t v1.NodeConditionType, s v1.ConditionStatus, reason, msg string) v1.NodeCondition {
		return v1.NodeCondition{Type: t, Status: s, Reason: reason, Message: msg, LastHeartbeatTime: now, LastTransitionTime: now}
	}
	return v1.NodeStatus{
		Capacity:    resources,
		Allocatable: resources,
		Phase:       v1.NodeRunning,
		Conditions: []v1.NodeCondition{
			condition(v1.NodeMemoryPressure, v1.ConditionFalse, "KubeletHasSufficientMemory", "kubelet has sufficient memory available"),
			condition(v1.NodeDiskPressure, v1.ConditionFalse, "KubeletHasNoDiskPressure", "kubelet has no disk pressure"),
			condition(v1.NodePIDPressure, v1.ConditionFalse, "KubeletHasSufficientPID", "kubelet has sufficient PID available"),
			condition(v1.NodeReady, v1.ConditionTrue, "KubeletReady", "simulated kubelet is posting ready status"),
		},
		DaemonEndpoints: v1.NodeDaemonEndpoints{KubeletEndpoint: v1.DaemonEndpoint{Port: kubeletPort}},
		Addresses: []v1.NodeAddress{
			{Type: v1.NodeInternalIP, Address: nodeIP},
			{Type: v1.NodeHostName, Address: nodeName},
		},
		NodeInfo: v1.NodeSystemInfo{
			KubeletVersion:          version.Get().GitVersion,
			OperatingSystem:         runtime.GOOS,
			Architecture:            runtime.GOARCH,
			ContainerRuntimeVersion: "testcluster://" + version.Get().GitVersion,
			OSImage:                 "testcluster simulated node",
			KernelVersion:           kernelVersion(),
		},
	}
}

func kernelVersion() string {
	b, err := os.ReadFile("/proc/sys/kernel/osrelease")
	if err != nil {
		return "unknown"
	}
	return strings.TrimSpace(string(b))
}
