package health

import (
	"errors"
	"fmt"
	"slices"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"

	"github.com/kubeplan/kubeplan/internal/healthexpr"
	"github.com/kubeplan/kubeplan/internal/kube"
)

// healthNoAnswer is the message of an object whose resource has not been
// read yet.
const healthNoAnswer = "no answer from the API server yet"

var healthPodsGVR = schema.GroupVersionResource{Version: "v1", Resource: "pods"}

// healthState is what the health checks know of the objects: what readers
// sent, applied by one goroutine.
type healthState struct {
	c        *kube.Client
	refs     []kube.Ref
	keys     []healthKey
	located  []bool
	locErr   []error
	selector string // label selector on every object, "" for none

	objs map[healthKey]*unstructured.Unstructured
	seen map[healthKey]bool  // read: in objs, or known absent
	errs map[healthKey]error // the last error reading it, until it is read
	pods map[string][]*unstructured.Unstructured
	// readPods starts reading the pods of a namespace (once).
	readPods   func(ns string)
	podsAsked  map[string]bool
	startGroup func(*healthGroup)
	// failFast, when set, fails a workload whose pods show a signal that
	// waiting will not heal (failfast.go).
	failFast *signalTracker
	// signalPods are, per namespace, the pods that show a signal
	// (classifyPod): only a workload in a namespace that has one is
	// looked at by failFast, so a healthy rollout costs nothing more.
	signalPods map[string]map[string]bool
	// rules are the health rules in CEL (WaitOptions.Rules); nil is the
	// built-in ones.
	rules *healthexpr.Set
}

func newHealthState(c *kube.Client, refs []kube.Ref, selector string) *healthState {
	return &healthState{c: c, refs: refs, selector: selector,
		keys: make([]healthKey, len(refs)), located: make([]bool, len(refs)), locErr: make([]error, len(refs)),
		objs: map[healthKey]*unstructured.Unstructured{}, seen: map[healthKey]bool{}, errs: map[healthKey]error{},
		pods: map[string][]*unstructured.Unstructured{}, podsAsked: map[string]bool{}, signalPods: map[string]map[string]bool{}}
}

// locate maps the refs at idx that are not located yet to their resources
// and starts a group per resource and namespace for those it could. It
// resets the REST mapper (once) when a kind is not known: a CRD just
// created may not be discovered yet.
func (s *healthState) locate(idx []int) {
	type gk struct {
		gvr schema.GroupVersionResource
		ns  string
	}
	byGroup := map[gk][]string{}
	var order []gk
	reset := false
	for _, i := range idx {
		if s.located[i] {
			continue
		}
		gvr, ns, err := healthLocate(s.c, s.refs[i])
		if err != nil && meta.IsNoMatchError(err) && !reset {
			s.c.Mapper.Reset()
			reset = true
			gvr, ns, err = healthLocate(s.c, s.refs[i])
		}
		if err != nil {
			s.locErr[i] = err
			continue
		}
		s.located[i], s.locErr[i] = true, nil
		s.keys[i] = healthKey{gvr, ns, s.refs[i].Name}
		k := gk{gvr, ns}
		if _, ok := byGroup[k]; !ok {
			order = append(order, k)
		}
		byGroup[k] = append(byGroup[k], s.refs[i].Name)
	}
	for _, k := range order {
		s.startGroup(newHealthGroup(k.gvr, k.ns, byGroup[k], s.selector))
	}
}

// healthLocate finds ref's REST resource and namespace (the client's default
// for a namespaced object without one).
func healthLocate(c *kube.Client, ref kube.Ref) (schema.GroupVersionResource, string, error) {
	if ref.Resource != "" {
		return schema.GroupVersionResource{Group: ref.Group, Version: ref.Version, Resource: ref.Resource}, ref.Namespace, nil
	}
	m, err := c.Mapper.RESTMapping(schema.GroupKind{Group: ref.Group, Kind: ref.Kind}, ref.Version)
	if err != nil {
		return schema.GroupVersionResource{}, "", fmt.Errorf("looking up %s: %w", ref.Kind, err)
	}
	ns := ref.Namespace
	if m.Scope.Name() == meta.RESTScopeNameRoot {
		ns = ""
	} else if ns == "" {
		ns = c.Namespace
	}
	return m.Resource, ns, nil
}

// apply records what a reader saw.
func (s *healthState) apply(ev healthEvent) {
	g := ev.g
	if g.pods() {
		s.applyPods(ev)
		return
	}
	switch {
	case ev.err != nil && ev.name != "":
		s.errs[g.key(ev.name)] = ev.err
	case ev.err != nil:
		for name := range g.names {
			if k := g.key(name); !s.seen[k] {
				s.errs[k] = ev.err
			}
		}
	case ev.listed:
		for name := range g.names {
			k := g.key(name)
			delete(s.objs, k)
			delete(s.errs, k)
			s.seen[k] = true
		}
		for _, u := range ev.objs {
			if g.has(u) {
				s.objs[g.key(u.GetName())] = u
			}
		}
	case ev.obj != nil && g.has(ev.obj):
		k := g.key(ev.obj.GetName())
		s.seen[k] = true
		delete(s.errs, k)
		if ev.typ == watch.Deleted {
			delete(s.objs, k)
		} else {
			s.objs[k] = ev.obj
		}
	}
}

func (s *healthState) applyPods(ev healthEvent) {
	ns := ev.g.ns
	switch {
	case ev.err != nil:
		return
	case ev.listed:
		s.pods[ns] = ev.objs
		delete(s.signalPods, ns)
		for _, p := range ev.objs {
			s.noteSignals(ns, p, true)
		}
		return
	}
	pods := slices.DeleteFunc(s.pods[ns], func(p *unstructured.Unstructured) bool { return p.GetName() == ev.obj.GetName() })
	if ev.typ != watch.Deleted {
		pods = append(pods, ev.obj)
	}
	s.pods[ns] = pods
	s.noteSignals(ns, ev.obj, ev.typ != watch.Deleted)
}

// maySignal reports whether workload u may have a pod that shows a
// signal: u is a Pod (read as itself), or a pod of its namespace shows one.
func (s *healthState) maySignal(u *unstructured.Unstructured) bool {
	if u.GetKind() == "Pod" && u.GetAPIVersion() == "v1" {
		return true
	}
	return len(s.signalPods[u.GetNamespace()]) > 0
}

// noteSignals records whether pod, in namespace ns, shows a signal fail
// fast looks at (present is false when the pod is gone).
func (s *healthState) noteSignals(ns string, pod *unstructured.Unstructured, present bool) {
	if s.failFast == nil {
		return
	}
	if present && len(classifyPod(pod)) > 0 {
		if s.signalPods[ns] == nil {
			s.signalPods[ns] = map[string]bool{}
		}
		s.signalPods[ns][pod.GetName()] = true
		return
	}
	delete(s.signalPods[ns], pod.GetName())
}

var errPodsNotRead = errors.New("pods not read yet")

// result is the health of ref i by what is known.
func (s *healthState) result(i int) Result {
	ref := s.refs[i]
	res := Result{Ref: ref, Status: Unknown}
	if !s.located[i] {
		res.Message = healthNoAnswer
		if s.locErr[i] != nil {
			res.Message = s.locErr[i].Error()
		}
		return res
	}
	k := s.keys[i]
	if u, ok := s.objs[k]; ok {
		if res, ok := healthByRule(ref, u, s.rules); ok {
			return res
		}
		res := healthAssess(ref, u, s.podLister(k.ns))
		if s.failFast != nil && s.maySignal(u) && !res.Healthy() && res.Status != Failed {
			if pods, ok := s.workloadPods(u, true); ok {
				if sig, fatal := s.failFast.fatal(pods); fatal {
					res.Status = Failed
					if !strings.Contains(res.Message, sig.Reason) {
						res.Message = healthJoin(res.Message, sig.Reason)
					}
				}
			}
		}
		return res
	}
	if err := s.errs[k]; err != nil {
		if apierrors.IsForbidden(err) || apierrors.IsUnauthorized(err) {
			// Waiting will not help.
			res.Status, res.Message = Failed, "cannot read it: "+err.Error()
			return res
		}
		res.Message = err.Error()
		return res
	}
	if s.seen[k] {
		res.Status, res.Message = NotFound, "not found"
		return res
	}
	res.Message = healthNoAnswer
	return res
}

// podLister lists the pods of namespace ns matching a selector, from what
// the pod reader sent; it starts that reader the first time.
func (s *healthState) podLister(ns string) healthPodLister {
	return func(sel labels.Selector) ([]unstructured.Unstructured, error) {
		pods, ok := s.pods[ns]
		if !ok {
			if !s.podsAsked[ns] {
				s.podsAsked[ns] = true
				s.readPods(ns)
			}
			if pods, ok = s.pods[ns]; !ok {
				return nil, errPodsNotRead
			}
		}
		var out []unstructured.Unstructured
		for _, p := range pods {
			if sel.Matches(labels.Set(p.GetLabels())) {
				out = append(out, *p)
			}
		}
		slices.SortFunc(out, func(a, b unstructured.Unstructured) int { return strings.Compare(a.GetName(), b.GetName()) })
		return out, nil
	}
}

// workloadPods returns the pods of workload u (u itself for a Pod) as read
// so far, only those of its current revision when current; ok is false
// when u has no pods or they were not read yet.
func (s *healthState) workloadPods(u *unstructured.Unstructured, current bool) ([]unstructured.Unstructured, bool) {
	if u.GetKind() == "Pod" && u.GetAPIVersion() == "v1" {
		return []unstructured.Unstructured{*u}, true
	}
	sel, ok := healthSelectorOf(u)
	if !ok {
		return nil, false
	}
	pods, err := s.podLister(u.GetNamespace())(sel)
	if current {
		pods = healthCurrentPods(u, pods)
	}
	return pods, err == nil
}

// healthCurrentPods keeps the pods of workload u's current revision: a
// rollout that replaces crashing pods must not fail on the old ones. A
// StatefulSet names it (status.updateRevision); for a Deployment or a
// DaemonSet it is the revision of the newest pod (pod-template-hash,
// controller-revision-hash), by the server's creation times, once its
// controller saw the new template and created a pod of it (none before).
func healthCurrentPods(u *unstructured.Unstructured, pods []unstructured.Unstructured) []unstructured.Unstructured {
	label, want := "", ""
	seen := healthInt(u.Object, 0, "status", "observedGeneration") >= u.GetGeneration()
	switch u.GetKind() {
	case "StatefulSet":
		label, want = "controller-revision-hash", healthString(u.Object, "status", "updateRevision")
	case "Deployment":
		label = "pod-template-hash"
		if !seen || healthInt(u.Object, 0, "status", "updatedReplicas") == 0 {
			return nil
		}
	case "DaemonSet":
		label = "controller-revision-hash"
		if !seen || healthInt(u.Object, 0, "status", "updatedNumberScheduled") == 0 {
			return nil
		}
	default:
		return pods
	}
	if want == "" {
		var newest metav1.Time
		for _, p := range pods {
			if ts := p.GetCreationTimestamp(); want == "" || newest.Before(&ts) {
				if v := p.GetLabels()[label]; v != "" {
					newest, want = ts, v
				}
			}
		}
	}
	if want == "" {
		return pods
	}
	return slices.DeleteFunc(slices.Clone(pods), func(p unstructured.Unstructured) bool { return p.GetLabels()[label] != want })
}
