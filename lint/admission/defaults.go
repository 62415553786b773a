package admission

import "github.com/kubeplan/kubeplan/manifest"

// The API server judges an object after defaulting it; lint reads it as
// written. defaulted applies the defaults policies most often read
// (k8s.io/kubernetes pkg/apis/core/v1/defaults.go, 1.37) to a copy of the
// object's content: a Pod's container requests from its limits
// (SetDefaults_Pod), a pod spec's dnsPolicy, restartPolicy,
// securityContext, terminationGracePeriodSeconds and schedulerName, in Pods
// and in the pod templates of workloads (SetDefaults_PodSpec), and a
// Service's type (SetDefaults_Service). Other defaults are not applied:
// a policy reading them sees them only when the manifest sets them.
func defaulted(o *manifest.Object) map[string]any {
	var specs [][]string // paths of pod specs
	pod := false
	switch {
	case o.APIVersion == "v1" && o.Kind == "Pod":
		specs, pod = [][]string{{"spec"}}, true
	case o.APIVersion == "v1" && o.Kind == "Service":
		spec, _ := o.Content["spec"].(map[string]any)
		if spec == nil || spec["type"] != nil {
			return o.Content
		}
		c := deepCopy(o.Content).(map[string]any)
		c["spec"].(map[string]any)["type"] = "ClusterIP"
		return c
	case o.APIVersion == "v1" && o.Kind == "PodTemplate":
		specs = [][]string{{"template", "spec"}}
	case o.APIVersion == "apps/v1" && (o.Kind == "Deployment" || o.Kind == "StatefulSet" || o.Kind == "DaemonSet" || o.Kind == "ReplicaSet"),
		o.APIVersion == "batch/v1" && o.Kind == "Job",
		o.APIVersion == "v1" && o.Kind == "ReplicationController":
		specs = [][]string{{"spec", "template", "spec"}}
	case o.APIVersion == "batch/v1" && o.Kind == "CronJob":
		specs = [][]string{{"spec", "jobTemplate", "spec", "template", "spec"}}
	default:
		return o.Content
	}
	var c map[string]any
	for _, path := range specs {
		if _, ok := o.Get(path...); !ok {
			continue
		}
		if c == nil {
			c = deepCopy(o.Content).(map[string]any)
		}
		spec := walk(c, path)
		if spec == nil {
			continue
		}
		setDefault(spec, "dnsPolicy", "ClusterFirst")
		setDefault(spec, "restartPolicy", "Always")
		setDefault(spec, "securityContext", map[string]any{})
		setDefault(spec, "terminationGracePeriodSeconds", int64(30))
		setDefault(spec, "schedulerName", "default-scheduler")
		if pod {
			requestsFromLimits(spec["containers"])
			requestsFromLimits(spec["initContainers"])
		}
	}
	if c == nil {
		return o.Content
	}
	return c
}

func walk(m map[string]any, path []string) map[string]any {
	for _, p := range path {
		next, _ := m[p].(map[string]any)
		if next == nil {
			return nil
		}
		m = next
	}
	return m
}

func setDefault(m map[string]any, key string, v any) {
	if _, ok := m[key]; !ok || m[key] == nil {
		m[key] = v
	}
}

// requestsFromLimits sets each container's missing requests to its limits.
func requestsFromLimits(containers any) {
	list, _ := containers.([]any)
	for _, c := range list {
		cm, _ := c.(map[string]any)
		res, _ := cm["resources"].(map[string]any)
		limits, _ := res["limits"].(map[string]any)
		if limits == nil {
			continue
		}
		req, _ := res["requests"].(map[string]any)
		if req == nil {
			req = map[string]any{}
			res["requests"] = req
		}
		for k, v := range limits {
			if _, ok := req[k]; !ok {
				req[k] = v
			}
		}
	}
}

func deepCopy(v any) any {
	switch t := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(t))
		for k, x := range t {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		l := make([]any, len(t))
		for i, x := range t {
			l[i] = deepCopy(x)
		}
		return l
	default:
		return v
	}
}
