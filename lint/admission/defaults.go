package admission

import (
	"strings"

	"github.com/kubeplan/kubeplan/manifest"
)

// The API server judges an object after defaulting it; lint reads it as
// written. defaulted applies, to a copy of the object's content, the
// defaults of the built-in kinds that policies read (the SetDefaults_
// functions of core/v1, apps/v1 and batch/v1 in Kubernetes 1.37):
//
//   - a pod spec (Pods, and the templates of workloads): dnsPolicy,
//     restartPolicy, securityContext, terminationGracePeriodSeconds,
//     schedulerName, enableServiceLinks; every container's
//     imagePullPolicy (Always for a :latest or untagged image without a
//     digest, else IfNotPresent), terminationMessagePath and -Policy, its
//     ports' protocol, its probes' timings and httpGet path and scheme;
//     a volume's defaultMode (secret, configMap, downwardAPI, projected)
//     and emptyDir when it names no source; a container's resources ({},
//     never left out); for a bare Pod only: requests from limits,
//     enableServiceLinks, and what the ServiceAccount, Priority and
//     DefaultTolerationSeconds admission plugins add (admitPod);
//   - Deployment, StatefulSet, DaemonSet, ReplicaSet: replicas, strategy or
//     updateStrategy, revisionHistoryLimit, progressDeadlineSeconds,
//     podManagementPolicy, persistentVolumeClaimRetentionPolicy;
//   - Job: completions, parallelism, backoffLimit, completionMode, suspend,
//     podReplacementPolicy; CronJob: concurrencyPolicy, suspend and the
//     history limits (its jobTemplate's spec gets no Job defaults);
//   - Service: type, sessionAffinity, its ports' protocol and targetPort,
//     internalTrafficPolicy, and for NodePort and LoadBalancer
//     externalTrafficPolicy (and allocateLoadBalancerNodePorts).
//
// What the API server allocates rather than defaults (a clusterIP, a
// nodePort, ipFamilies) is not known offline.
func defaulted(o *manifest.Object) map[string]any {
	if o.APIVersion == "v1" && o.Kind == "PodTemplate" {
		if _, ok := o.Content["template"].(map[string]any); !ok {
			return o.Content
		}
		c := deepCopy(o.Content).(map[string]any)
		defaultTemplate(c)
		return c
	}
	d, ok := defaulters[o.APIVersion+"/"+o.Kind]
	if !ok {
		return o.Content
	}
	c := deepCopy(o.Content).(map[string]any)
	spec, _ := c["spec"].(map[string]any)
	if spec == nil {
		if o.Kind != "Service" && o.Kind != "Pod" {
			return c
		}
		spec = map[string]any{}
		c["spec"] = spec
	}
	d(spec)
	return c
}

// defaulters default the spec of each built-in kind, by apiVersion/kind.
var defaulters = map[string]func(spec map[string]any){
	"v1/Pod": func(spec map[string]any) {
		defaultPodSpec(spec, true)
		requestsFromLimits(spec["containers"])
		requestsFromLimits(spec["initContainers"])
	},
	"v1/ReplicationController": func(spec map[string]any) {
		setDefault(spec, "replicas", int64(1))
		defaultTemplate(spec)
	},
	"v1/Service":          defaultService,
	"apps/v1/Deployment":  defaultDeployment,
	"apps/v1/StatefulSet": defaultStatefulSet,
	"apps/v1/DaemonSet": func(spec map[string]any) {
		us := child(spec, "updateStrategy")
		setDefault(us, "type", "RollingUpdate")
		if us["type"] == "RollingUpdate" {
			ru := child(us, "rollingUpdate")
			setDefault(ru, "maxUnavailable", int64(1))
			setDefault(ru, "maxSurge", int64(0))
		}
		setDefault(spec, "revisionHistoryLimit", int64(10))
		defaultTemplate(spec)
	},
	"apps/v1/ReplicaSet": func(spec map[string]any) {
		setDefault(spec, "replicas", int64(1))
		defaultTemplate(spec)
	},
	"batch/v1/Job": defaultJob,
	"batch/v1/CronJob": func(spec map[string]any) {
		setDefault(spec, "concurrencyPolicy", "Allow")
		setDefault(spec, "suspend", false)
		setDefault(spec, "successfulJobsHistoryLimit", int64(3))
		setDefault(spec, "failedJobsHistoryLimit", int64(1))
		if jt, _ := spec["jobTemplate"].(map[string]any); jt != nil {
			if js, _ := jt["spec"].(map[string]any); js != nil {
				defaultTemplate(js) // a job template gets the pod defaults, not a Job's
			}
		}
	},
}

func defaultDeployment(spec map[string]any) {
	setDefault(spec, "replicas", int64(1))
	st := child(spec, "strategy")
	setDefault(st, "type", "RollingUpdate")
	if st["type"] == "RollingUpdate" {
		ru := child(st, "rollingUpdate")
		setDefault(ru, "maxUnavailable", "25%")
		setDefault(ru, "maxSurge", "25%")
	}
	setDefault(spec, "revisionHistoryLimit", int64(10))
	setDefault(spec, "progressDeadlineSeconds", int64(600))
	defaultTemplate(spec)
}

func defaultStatefulSet(spec map[string]any) {
	setDefault(spec, "replicas", int64(1))
	setDefault(spec, "podManagementPolicy", "OrderedReady")
	us := child(spec, "updateStrategy")
	setDefault(us, "type", "RollingUpdate")
	if us["type"] == "RollingUpdate" {
		setDefault(child(us, "rollingUpdate"), "partition", int64(0))
	}
	setDefault(spec, "revisionHistoryLimit", int64(10))
	rp := child(spec, "persistentVolumeClaimRetentionPolicy")
	setDefault(rp, "whenDeleted", "Retain")
	setDefault(rp, "whenScaled", "Retain")
	defaultTemplate(spec)
}

func defaultJob(spec map[string]any) {
	if spec["completions"] == nil && spec["parallelism"] == nil {
		spec["completions"] = int64(1)
	}
	setDefault(spec, "parallelism", int64(1))
	if spec["backoffLimitPerIndex"] == nil {
		setDefault(spec, "backoffLimit", int64(6))
	} else {
		setDefault(spec, "backoffLimit", int64(1<<31-1))
	}
	setDefault(spec, "completionMode", "NonIndexed")
	setDefault(spec, "suspend", false)
	if spec["podFailurePolicy"] != nil {
		setDefault(spec, "podReplacementPolicy", "Failed")
	} else {
		setDefault(spec, "podReplacementPolicy", "TerminatingOrFailed")
	}
	defaultTemplate(spec)
}

func defaultService(spec map[string]any) {
	setDefault(spec, "type", "ClusterIP")
	setDefault(spec, "sessionAffinity", "None")
	typ, _ := spec["type"].(string)
	ports, _ := spec["ports"].([]any)
	for _, p := range ports {
		pm, _ := p.(map[string]any)
		if pm == nil {
			continue
		}
		setDefault(pm, "protocol", "TCP")
		if tp := pm["targetPort"]; tp == nil || tp == "" || tp == int64(0) {
			pm["targetPort"] = pm["port"]
		}
	}
	if spec["sessionAffinity"] == "ClientIP" {
		setDefault(child(child(spec, "sessionAffinityConfig"), "clientIP"), "timeoutSeconds", int64(10800))
	}
	if typ == "ExternalName" {
		return
	}
	setDefault(spec, "internalTrafficPolicy", "Cluster")
	if ips, _ := spec["externalIPs"].([]any); typ == "NodePort" || typ == "LoadBalancer" || len(ips) > 0 {
		setDefault(spec, "externalTrafficPolicy", "Cluster")
	}
	if typ == "LoadBalancer" {
		setDefault(spec, "allocateLoadBalancerNodePorts", true)
	}
}

// defaultTemplate defaults the pod spec of spec.template.
func defaultTemplate(spec map[string]any) {
	t, _ := spec["template"].(map[string]any)
	if t == nil {
		return
	}
	if ps, _ := t["spec"].(map[string]any); ps != nil {
		defaultPodSpec(ps, false)
	}
}

// defaultPodSpec defaults a pod spec; bare is true for a Pod's own spec,
// false for a template's (a hostNetwork pod's hostPorts are defaulted in
// Pods only).
func defaultPodSpec(spec map[string]any, bare bool) {
	setDefault(spec, "dnsPolicy", "ClusterFirst")
	setDefault(spec, "restartPolicy", "Always")
	setDefault(spec, "securityContext", map[string]any{})
	setDefault(spec, "terminationGracePeriodSeconds", int64(30))
	setDefault(spec, "schedulerName", "default-scheduler")
	if bare {
		setDefault(spec, "enableServiceLinks", true) // SetDefaults_Pod, not in templates
		admitPod(spec)
	}
	for _, key := range []string{"initContainers", "containers", "ephemeralContainers"} {
		list, _ := spec[key].([]any)
		for _, c := range list {
			if cm, _ := c.(map[string]any); cm != nil {
				defaultContainer(cm, bare && spec["hostNetwork"] == true)
			}
		}
	}
	vols, _ := spec["volumes"].([]any)
	for _, v := range vols {
		if vm, _ := v.(map[string]any); vm != nil {
			defaultVolume(vm)
		}
	}
}

func defaultContainer(c map[string]any, hostNetwork bool) {
	setDefault(c, "resources", map[string]any{}) // a struct, never left out
	if c["imagePullPolicy"] == nil {
		image, _ := c["image"].(string)
		if imageTag(image) == "latest" {
			c["imagePullPolicy"] = "Always"
		} else {
			c["imagePullPolicy"] = "IfNotPresent"
		}
	}
	setDefault(c, "terminationMessagePath", "/dev/termination-log")
	setDefault(c, "terminationMessagePolicy", "File")
	ports, _ := c["ports"].([]any)
	for _, p := range ports {
		if pm, _ := p.(map[string]any); pm != nil {
			setDefault(pm, "protocol", "TCP")
			if hostNetwork {
				setDefault(pm, "hostPort", pm["containerPort"])
			}
		}
	}
	for _, probe := range []string{"livenessProbe", "readinessProbe", "startupProbe"} {
		pm, _ := c[probe].(map[string]any)
		if pm == nil {
			continue
		}
		setDefault(pm, "timeoutSeconds", int64(1))
		setDefault(pm, "periodSeconds", int64(10))
		setDefault(pm, "successThreshold", int64(1))
		setDefault(pm, "failureThreshold", int64(3))
		if hg, _ := pm["httpGet"].(map[string]any); hg != nil {
			setDefault(hg, "path", "/")
			setDefault(hg, "scheme", "HTTP")
		}
	}
}

// admitPod adds to a Pod's spec what the admission plugins every API
// server runs add before validation: the ServiceAccount plugin's
// serviceAccountName (its token volume has a random name and is left out),
// the Priority plugin's priority for a Pod without priorityClassName, and
// the DefaultTolerationSeconds plugin's tolerations.
func admitPod(spec map[string]any) {
	setDefault(spec, "serviceAccountName", "default")
	setDefault(spec, "serviceAccount", spec["serviceAccountName"])
	if spec["priorityClassName"] == nil {
		setDefault(spec, "priority", int64(0))
		setDefault(spec, "preemptionPolicy", "PreemptLowerPriority")
	}
	tols, _ := spec["tolerations"].([]any)
	for _, key := range []string{"node.kubernetes.io/not-ready", "node.kubernetes.io/unreachable"} {
		if !tolerates(tols, key) {
			tols = append(tols, map[string]any{"key": key, "operator": "Exists", "effect": "NoExecute", "tolerationSeconds": int64(300)})
		}
	}
	spec["tolerations"] = tols
}

// tolerates reports whether tols already tolerate the NoExecute taint key.
func tolerates(tols []any, key string) bool {
	for _, t := range tols {
		tm, _ := t.(map[string]any)
		if tm == nil {
			continue
		}
		k, _ := tm["key"].(string)
		e, _ := tm["effect"].(string)
		op, _ := tm["operator"].(string)
		if (k == key || (k == "" && op == "Exists")) && (e == "" || e == "NoExecute") {
			return true
		}
	}
	return false
}

// volumeSources are the keys of a volume that name its source.
var volumeSources = []string{"hostPath", "emptyDir", "gcePersistentDisk", "awsElasticBlockStore", "gitRepo", "secret",
	"nfs", "iscsi", "glusterfs", "persistentVolumeClaim", "rbd", "flexVolume", "cinder", "cephfs", "flocker",
	"downwardAPI", "fc", "azureFile", "configMap", "vsphereVolume", "quobyte", "azureDisk", "photonPersistentDisk",
	"projected", "portworxVolume", "scaleIO", "storageos", "csi", "ephemeral", "image"}

func defaultVolume(v map[string]any) {
	named := false
	for _, k := range volumeSources {
		if v[k] != nil {
			named = true
			break
		}
	}
	if !named {
		v["emptyDir"] = map[string]any{}
	}
	for _, k := range []string{"secret", "configMap", "downwardAPI", "projected"} {
		if src, _ := v[k].(map[string]any); src != nil {
			setDefault(src, "defaultMode", int64(0o644))
		}
	}
}

// imageTag is the tag the API server reads from an image reference:
// "latest" when there is neither a tag nor a digest, "" with a digest only.
func imageTag(image string) string {
	name, _, digest := strings.Cut(image, "@")
	last := name[strings.LastIndex(name, "/")+1:]
	if _, tag, ok := strings.Cut(last, ":"); ok {
		return tag
	}
	if digest {
		return ""
	}
	return "latest"
}

// child is m[key] as a map, made when missing.
func child(m map[string]any, key string) map[string]any {
	c, _ := m[key].(map[string]any)
	if c == nil {
		c = map[string]any{}
		m[key] = c
	}
	return c
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
