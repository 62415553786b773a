package health

import (
	"context"
	"fmt"
	"io"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// diagnoseLogLines is how many lines of a failing container's log a
// diagnosis keeps.
const diagnoseLogLines = 20

// diagnoseMaxEvents bounds the events a diagnosis keeps (the last ones).
const diagnoseMaxEvents = 10

var (
	healthEventsGVR      = schema.GroupVersionResource{Group: "events.k8s.io", Version: "v1", Resource: "events"}
	healthSecretsGVR     = schema.GroupVersionResource{Version: "v1", Resource: "secrets"}
	healthReplicaSetsGVR = schema.GroupVersionResource{Group: "apps", Version: "v1", Resource: "replicasets"}
)

// healthRevisionAnnotation is the Deployment's revision, which the
// deployment controller copies onto the ReplicaSet of that revision.
const healthRevisionAnnotation = "deployment.kubernetes.io/revision"

// causesOf groups the signals the pods show (any signal, whatever its
// grace: the wait already failed) by container and reason, with a count;
// pods that show none give nothing.
func causesOf(pods []unstructured.Unstructured) []Cause {
	var out []Cause
	for i := range pods {
		seen := map[string]bool{}
		for _, c := range classifyPod(&pods[i]) {
			k := fmt.Sprintf("%t/%s/%s", c.Init, c.Container, c.Reason)
			if seen[k] {
				continue
			}
			seen[k] = true
			j := slices.IndexFunc(out, func(o Cause) bool {
				return o.Init == c.Init && o.Container == c.Container && o.Reason == c.Reason
			})
			if j < 0 {
				out = append(out, Cause{Signal: c.Signal, Pods: 1})
				continue
			}
			out[j].Pods++
		}
	}
	return out
}

// diagnoser reads what a diagnosis needs: events, logs and the Secrets to
// mask, once per namespace.
type diagnoser struct {
	c            *kube.Client
	secretValues func(map[string]any) []string
	mask         *masker
	events       map[string][]unstructured.Unstructured
	eventsErr    map[string]error
	secretErr    map[string]error // by namespace/name
	// pods reads container logs (pods/log), made at the first read.
	pods corev1client.CoreV1Interface
}

func newDiagnoser(c *kube.Client, opts WaitOptions) *diagnoser {
	return &diagnoser{c: c, secretValues: opts.SecretValues, mask: newMasker(opts.Secrets),
		events: map[string][]unstructured.Unstructured{}, eventsErr: map[string]error{}, secretErr: map[string]error{}}
}

// diagnose builds the diagnosis of a workload in namespace ns whose pods
// are pods; owners are the workload and the objects between it and its
// pods ("Kind/name": ownersOf), whose events it lists with the pods'.
func (d *diagnoser) diagnose(ctx context.Context, ns string, owners []string, pods []unstructured.Unstructured) *Diagnosis {
	diag := &Diagnosis{Causes: causesOf(pods)}
	unreadable := d.maskReferenced(ctx, ns, pods)
	objects := map[string]bool{}
	for _, o := range owners {
		objects[o] = true
	}
	for i := range pods {
		objects["Pod/"+pods[i].GetName()] = true
		for _, o := range pods[i].GetOwnerReferences() {
			objects[o.Kind+"/"+o.Name] = true
		}
	}
	diag.Events = d.eventsOf(ctx, ns, objects)
	if err := d.eventsErr[ns]; err != nil {
		diag.Missing = append(diag.Missing, healthMissing(err, "list events (events.k8s.io)"))
	}
	logForbidden := false
	for i := range diag.Causes {
		c := &diag.Causes[i]
		c.Message = d.mask.text(c.Message)
		c.TerminationMessage = d.mask.text(c.TerminationMessage)
		if c.Container == "" || (!c.Previous && c.ExitCode == 0 && c.TerminationMessage == "" && !healthRunning(pods, c.Pod, c.Container)) {
			continue // nothing ran: no log to read
		}
		if len(unreadable) > 0 {
			c.LogNote = fmt.Sprintf("log withheld: cannot read Secret %s to mask its values", strings.Join(unreadable, ", "))
			continue
		}
		lines, err := d.logTail(ctx, ns, c.Pod, c.Container, c.Previous)
		switch {
		case err == nil:
			for _, l := range lines {
				c.Log = append(c.Log, d.mask.text(l))
			}
		case apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err):
			c.LogNote = "log not read: " + healthMissing(err, "get pods/log")
			logForbidden = true
		default:
			c.LogNote = "log not read: " + d.mask.text(err.Error())
		}
	}
	if logForbidden {
		diag.Missing = append(diag.Missing, "missing permission: get pods/log")
	}
	return diag
}

// ownersOf names workload u and, for a Deployment, the ReplicaSets it owns
// of its current revision (all it owns when it has none yet): their
// events say why pods are missing (FailedCreate when a quota or Pod
// Security refuses them), which the pods' own owner references cannot,
// there being no pods. A Job, a StatefulSet or a DaemonSet creates its
// pods itself: its own events say so. missing is set when the
// ReplicaSets could not be listed.
func (d *diagnoser) ownersOf(ctx context.Context, u *unstructured.Unstructured) (owners []string, missing string) {
	owners = []string{u.GetKind() + "/" + u.GetName()}
	if u.GetKind() != "Deployment" || u.GetAPIVersion() != "apps/v1" {
		return owners, ""
	}
	var opts metav1.ListOptions
	if sel, ok := healthSelectorOf(u); ok {
		opts.LabelSelector = sel.String()
	}
	l, err := d.c.Dynamic.Resource(healthReplicaSetsGVR).Namespace(u.GetNamespace()).List(ctx, opts)
	if err != nil {
		return owners, healthMissing(err, "list replicasets (apps)")
	}
	revision := u.GetAnnotations()[healthRevisionAnnotation]
	for _, rs := range l.Items {
		owned := slices.ContainsFunc(rs.GetOwnerReferences(), func(o metav1.OwnerReference) bool { return o.UID == u.GetUID() })
		if owned && (revision == "" || rs.GetAnnotations()[healthRevisionAnnotation] == revision) {
			owners = append(owners, "ReplicaSet/"+rs.GetName())
		}
	}
	return owners, ""
}

// healthRunning reports whether the container of pod has started once.
func healthRunning(pods []unstructured.Unstructured, pod, container string) bool {
	for i := range pods {
		if pods[i].GetName() != pod {
			continue
		}
		for _, f := range []string{"initContainerStatuses", "containerStatuses"} {
			sts, _, _ := unstructured.NestedSlice(pods[i].Object, "status", f)
			for _, s := range sts {
				m, _ := s.(map[string]any)
				if m == nil || m["name"] != container {
					continue
				}
				_, running, _ := unstructured.NestedMap(m, "state", "running")
				_, ended, _ := unstructured.NestedMap(m, "state", "terminated")
				return running || ended || healthInt(m, 0, "restartCount") > 0
			}
		}
	}
	return false
}

// healthMissing words a permission error: what is missing, never the
// server's full text (it names the user, which is fine, but is long).
func healthMissing(err error, what string) string {
	if apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err) {
		return "missing permission: " + what
	}
	return what + ": " + err.Error()
}

// eventsOf lists the namespace's events (once) and returns the Warning
// ones about objects, masked, deduplicated and grouped across pods
// (eventGrouper), the last diagnoseMaxEvents after grouping.
func (d *diagnoser) eventsOf(ctx context.Context, ns string, objects map[string]bool) []Event {
	items, ok := d.events[ns]
	if !ok && d.eventsErr[ns] == nil {
		l, err := d.c.Dynamic.Resource(healthEventsGVR).Namespace(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			d.eventsErr[ns] = err
			return nil
		}
		items = l.Items
		slices.SortStableFunc(items, func(a, b unstructured.Unstructured) int {
			return strings.Compare(healthEventTime(a), healthEventTime(b))
		})
		d.events[ns] = items
	}
	var g eventGrouper
	for _, e := range items {
		if healthString(e.Object, "type") != "Warning" {
			continue
		}
		obj := healthString(e.Object, "regarding", "kind") + "/" + healthString(e.Object, "regarding", "name")
		if !objects[obj] {
			continue
		}
		ev := Event{Object: obj, Reason: healthString(e.Object, "reason"), Note: d.mask.text(healthString(e.Object, "note")), Count: 1}
		if n := healthInt(e.Object, 0, "series", "count"); n > 1 {
			ev.Count = int(n)
		} else if n := healthInt(e.Object, 0, "deprecatedCount"); n > 1 {
			ev.Count = int(n)
		}
		g.add(ev, healthString(e.Object, "regarding", "uid"))
	}
	out := g.events()
	if len(out) > diagnoseMaxEvents {
		out = out[len(out)-diagnoseMaxEvents:]
	}
	return out
}

// healthEventTime is when an event last happened, as RFC 3339 text
// (sortable).
func healthEventTime(e unstructured.Unstructured) string {
	for _, p := range [][]string{{"series", "lastObservedTime"}, {"eventTime"}, {"deprecatedLastTimestamp"}, {"metadata", "creationTimestamp"}} {
		if s := healthString(e.Object, p...); s != "" {
			return s
		}
	}
	return ""
}

// logTail reads the last diagnoseLogLines lines of a container's log. It
// streams the log, so an error carries the server's own message (client-go
// words a raw read's 400 as an unknown reason).
func (d *diagnoser) logTail(ctx context.Context, ns, pod, container string, previous bool) ([]string, error) {
	if d.pods == nil {
		cc, err := corev1client.NewForConfig(d.c.Config)
		if err != nil {
			return nil, err
		}
		d.pods = cc
	}
	tail, limit := int64(diagnoseLogLines), int64(diagnoseLogBytes)
	rc, err := d.pods.Pods(ns).GetLogs(pod, &corev1.PodLogOptions{Container: container, Previous: previous, TailLines: &tail, LimitBytes: &limit}).Stream(ctx)
	if err != nil {
		return nil, err
	}
	defer rc.Close()
	raw, err := io.ReadAll(io.LimitReader(rc, diagnoseLogBytes))
	if err != nil {
		return nil, err
	}
	text := strings.TrimRight(string(raw), "\n")
	if text == "" {
		return nil, nil
	}
	lines := strings.Split(text, "\n")
	if len(lines) > diagnoseLogLines {
		lines = lines[len(lines)-diagnoseLogLines:]
	}
	return lines, nil
}

// diagnoseLogBytes bounds the log read of one container.
const diagnoseLogBytes = 64 << 10

// diagnoseTimeout bounds the reads of a diagnosis, which runs after the
// wait's own context may have ended (a timeout).
const diagnoseTimeout = 20 * time.Second

// healthDiagnose adds a Diagnosis to every result of e (failed or
// pending) that is a workload with pods, and to the same result in
// results.
func healthDiagnose(ctx context.Context, c *kube.Client, r *healthReader, s *healthState, results []Result, e *UnhealthyError, opts WaitOptions) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), diagnoseTimeout)
	defer cancel()
	d := newDiagnoser(c, opts)
	for j := range e.Results {
		i := slices.IndexFunc(s.refs, func(ref kube.Ref) bool { return ref == e.Results[j].Ref })
		if i < 0 || !s.located[i] {
			continue
		}
		k := s.keys[i]
		u, ok := s.objs[k]
		if !ok {
			continue
		}
		if _, read := s.pods[k.ns]; !read && u.GetKind() != "Pod" {
			for _, ev := range r.once(ctx, &healthGroup{gvr: healthPodsGVR, ns: k.ns}) {
				s.apply(ev)
			}
			s.podsAsked[k.ns] = true
		}
		pods, ok := s.workloadPods(u, true)
		if len(pods) == 0 {
			pods, ok = s.workloadPods(u, false)
		}
		if !ok {
			continue
		}
		owners, missing := d.ownersOf(ctx, u)
		diag := d.diagnose(ctx, k.ns, owners, pods)
		if missing != "" {
			diag.Missing = append(diag.Missing, missing)
		}
		if c, ok := healthFindCondition(u, "Failed"); ok && c.status == "True" && len(diag.Causes) == 0 {
			diag.Causes = append(diag.Causes, Cause{Signal: Signal{Reason: c.reason, Message: d.mask.text(c.message)}})
		}
		if c, ok := healthFindCondition(u, "Progressing"); ok && c.reason == "ProgressDeadlineExceeded" && len(diag.Causes) == 0 {
			diag.Causes = append(diag.Causes, Cause{Signal: Signal{Reason: c.reason, Message: d.mask.text(c.message)}})
		}
		e.Results[j].Diagnosis = diag
		results[i].Diagnosis = diag
	}
}
