// Package health owns what "healthy" means for a Kubernetes object and how
// kubeplan finds out: the statuses (kstatus's, and Complete for a Job),
// the assessment of one object with the reason it is not ready (the
// failing pod's ImagePullBackOff, a Job's progress), the kinds that are
// ready as soon as they are written, the reads (one LIST and WATCH per
// resource and namespace, the pods of a namespace only when a workload is
// not ready), Wait until a set of objects is healthy and Assess for one
// look (kubeplan status). With WaitOptions.FailFast a wait fails a
// workload as soon as the pods of its current revision show a signal that
// waiting will not heal (failfast.go: classifyPod, the grace each class
// gets); with WaitOptions.Diagnose a wait that fails or times out reads
// why (diagnose.go: the causes with a count of pods, the Warning events of
// the pods and their owners, a Deployment's ReplicaSets included, one line
// per cause across pods (eventgroup.go), the failing container's log
// tail, Secret values masked (mask.go: the set's and those of every Secret
// the pods reference, optional ones included), the permissions it lacked)
// into Result.Diagnosis. A wait
// that succeeds makes no request for either. An object a health rule in
// CEL is about (WaitOptions.Rules, else the built-in rules of
// internal/healthexpr; rules.go) is judged by its rule instead of kstatus.
//
// It reads the cluster and never writes to it; it reports progress to an
// injected Reporter and never prints. Deciding which objects to wait for,
// and when, is apply's.
package health
