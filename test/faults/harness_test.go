package faults

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/testing/faultproxy"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

const (
	setName   = "set"   // the ApplySet under test: configmap/set
	otherName = "other" // a bystander set in the same namespace: configmap/other

	// lockDuration is asked of kubeplan through KUBEPLAN_LOCK_DURATION so
	// that a killed or stopped holder's Lease expires quickly. Until
	// kubeplan reads it, the Lease lasts apply.DefaultLockDuration (60 s)
	// and the tests that wait for expiry wait that long.
	lockDuration = "5s"
	// leaseExpiryBound bounds every wait for a Lease to expire.
	leaseExpiryBound = 90 * time.Second
	// runBound bounds every kubeplan run the tests wait for.
	runBound = 3 * time.Minute
	// phaseBound bounds every wait for a phase of a run.
	phaseBound = 2 * time.Minute
	poll       = 40 * time.Millisecond
)

var (
	configMaps = schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}
	services   = schema.GroupVersionResource{Version: "v1", Resource: "services"}
	leases     = schema.GroupVersionResource{Group: "coordination.k8s.io", Version: "v1", Resource: "leases"}
	// memberKinds are the kinds the corpora use: the invariants list
	// members of these.
	memberKinds = map[string]schema.GroupVersionResource{"ConfigMap": configMaps, "Service": services}
)

// env is one case's world: a namespace, the narrow edit identity of it
// through a proxy, an admin client that bypasses the proxy, and a
// bystander set.
type env struct {
	t     *testing.T
	c     *testkube.Cluster
	ns    string
	bin   string
	proxy *faultproxy.Proxy
	kc    string // the narrow identity's kubeconfig, through the proxy
	admin dynamic.Interface
	id    string // the ApplySet ID of configmap/set

	other snapshot // the bystander set as it was before the case
}

func newEnv(t *testing.T) *env {
	t.Helper()
	testkube.Integration(t)
	c := testkube.Shared(t)
	e := &env{t: t, c: c, ns: c.Namespace(t), bin: testkube.Kubeplan(t)}
	e.proxy = faultproxy.ForKubeconfig(t, c.AdminKubeconfig())
	e.kc = faultproxy.KubeconfigVia(t, c.Narrow(t, "edit", e.ns), e.proxy)
	cfg, err := clientcmd.BuildConfigFromFlags("", c.AdminKubeconfig())
	if err != nil {
		t.Fatal(err)
	}
	cfg.Timeout, cfg.QPS = 30*time.Second, -1
	if e.admin, err = dynamic.NewForConfig(cfg); err != nil {
		t.Fatal(err)
	}
	p, err := applyset.ParseParentFlag("configmap/"+setName, e.ns)
	if err != nil {
		t.Fatal(err)
	}
	e.id = p.ID()
	// The bystander: applied as admin, straight to the server.
	r := e.startAs(c.AdminKubeconfig(), otherName, e.corpus(objs("ConfigMap", "bystander", 3)...))
	if code := r.wait(runBound); code != 0 {
		t.Fatalf("applying the bystander set: exit %d\n%s", code, r.output())
	}
	e.other = e.snapshotOf(otherName)
	return e
}

// obj is one manifest object: Kind and name.
type obj struct{ kind, name string }

// ref is how kubeplan names it in its output: "configmap/NAME".
func (o obj) ref() string { return strings.ToLower(o.kind) + "/" + o.name }

// objs names n objects of kind: prefix-0 ... prefix-(n-1).
func objs(kind, prefix string, n int) []obj {
	out := make([]obj, n)
	for i := range out {
		out[i] = obj{kind, fmt.Sprintf("%s-%d", prefix, i)}
	}
	return out
}

func join(sets ...[]obj) []obj { return slices.Concat(sets...) }

// corpus writes the objects as one manifest directory and returns it.
func (e *env) corpus(os_ ...obj) string {
	e.t.Helper()
	var b strings.Builder
	for _, o := range os_ {
		switch o.kind {
		case "ConfigMap":
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: ConfigMap\nmetadata: {name: %s}\ndata: {key: value}\n", o.name)
		case "Service":
			fmt.Fprintf(&b, "---\napiVersion: v1\nkind: Service\nmetadata: {name: %s}\nspec:\n  selector: {app: %s}\n  ports: [{port: 80}]\n", o.name, o.name)
		default:
			e.t.Fatalf("corpus: no template for kind %s", o.kind)
		}
	}
	dir := e.t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "objects.yaml"), []byte(b.String()), 0o644); err != nil {
		e.t.Fatal(err)
	}
	return dir
}

// run is one kubeplan process.
type run struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdout *bytes.Buffer
	stderr *syncBuffer
	start  time.Time
	done   chan struct{} // closed when the process has exited
	code   int           // its exit code (-1: killed by a signal); read after done
}

// start runs `kubeplan apply` of dir into configmap/set as the narrow
// identity through the proxy.
func (e *env) start(dir string, extra ...string) *run {
	return e.startAs(e.kc, setName, dir, extra...)
}

func (e *env) startAs(kubeconfig, set, dir string, extra ...string) *run {
	e.t.Helper()
	args := append([]string{"apply", "--kubeconfig", kubeconfig, "-n", e.ns, "--applyset", "configmap/" + set,
		"--auto-approve", "--wait=false",
		// The faults replace most of the set from one version to the
		// next: that prune is intended (the guard rules are tested in
		// cmd/kubeplan and serve).
		"--approve", "mass-prune=the fault tests replace the set"}, extra...)
	args = append(args, dir)
	cmd := exec.Command(e.bin, args...)
	cmd.Env = append(os.Environ(), "KUBEPLAN_CACHE_DIR="+e.t.TempDir(), "KUBEPLAN_LOCK_DURATION="+lockDuration, "NO_COLOR=1")
	r := &run{t: e.t, cmd: cmd, stdout: &bytes.Buffer{}, stderr: &syncBuffer{}, done: make(chan struct{})}
	var out syncBuffer
	cmd.Stdout, cmd.Stderr = &out, r.stderr
	if err := cmd.Start(); err != nil {
		e.t.Fatal(err)
	}
	r.start = time.Now()
	go func() {
		err := cmd.Wait()
		r.stdout.WriteString(out.String())
		r.code = 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			r.code = ee.ExitCode()
		} else if err != nil {
			r.code = -2
		}
		close(r.done)
	}()
	e.t.Cleanup(func() {
		_ = cmd.Process.Signal(syscall.SIGCONT)
		_ = cmd.Process.Kill()
		<-r.done
	})
	return r
}

// wait waits up to bound for the run to exit and returns its exit code;
// it fails the test (after killing the process) when the run takes longer.
func (r *run) wait(bound time.Duration) int {
	r.t.Helper()
	select {
	case <-r.done:
		return r.code
	case <-time.After(bound):
		_ = r.cmd.Process.Kill()
		<-r.done
		r.t.Fatalf("kubeplan did not exit within %s (killed)\n%s", bound, r.output())
		return 0
	}
}

// mustFail waits for a run that met fault: it must exit non-zero (any
// fault that stops an apply fails it). It logs how long the run took after
// the fault.
func (r *run) mustFail(fault string, at time.Time) {
	r.t.Helper()
	code := r.wait(runBound)
	r.t.Logf("kubeplan exited %d %s after %s", code, time.Since(at).Round(100*time.Millisecond), fault)
	if code == 0 {
		r.t.Fatalf("kubeplan exited 0 although %s\n%s", fault, r.output())
	}
}

func (r *run) exited() bool {
	select {
	case <-r.done:
		return true
	default:
		return false
	}
}

func (r *run) elapsed() time.Duration { return time.Since(r.start).Round(100 * time.Millisecond) }

func (r *run) signal(sig syscall.Signal) {
	r.t.Helper()
	if err := r.cmd.Process.Signal(sig); err != nil {
		r.t.Fatalf("signal %v: %v", sig, err)
	}
}

// output is what the run printed, for failure messages (the stdout once
// it exited).
func (r *run) output() string {
	var out string
	if r.exited() {
		out = r.stdout.String()
	}
	return fmt.Sprintf("--- stdout:\n%s--- stderr:\n%s", tail(out, 40), tail(r.stderr.String(), 40))
}

// outcomes are the refs the run's text output reports with outcome
// ("created", "pruned", ...).
func (r *run) outcomes(outcome string) []string {
	var refs []string
	for line := range strings.Lines(r.stdout.String()) {
		if ref, ok := strings.CutSuffix(strings.TrimSpace(line), " "+outcome); ok && !strings.Contains(ref, " ") {
			refs = append(refs, ref)
		}
	}
	sort.Strings(refs)
	return refs
}

func tail(s string, n int) string {
	lines := strings.SplitAfter(s, "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("[%d lines]\n", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "")
}

// waitFor polls cond until it holds; it fails the test when r exits first
// or phaseBound passes.
func (e *env) waitFor(r *run, what string, cond func() bool) {
	e.t.Helper()
	deadline := time.Now().Add(phaseBound)
	for !cond() {
		if r != nil && r.exited() {
			e.t.Fatalf("kubeplan exited (%d) after %s before %s: the fault could not be placed\n%s", r.code, r.elapsed(), what, r.output())
		}
		if time.Now().After(deadline) {
			e.t.Fatalf("no %s within %s", what, phaseBound)
		}
		time.Sleep(poll)
	}
}

// --- observing the cluster (as admin, not through the proxy) ---

// snapshot is a set's parent and labelled members, as the server has them.
type snapshot struct {
	parent     *unstructured.Unstructured // nil when absent
	kinds      []string                   // contains-group-kinds, as listed
	namespaces []string                   // additional-namespaces, as listed
	members    map[string]member          // by "configmap/NAME" (all in e.ns unless ns says otherwise)
}

type member struct {
	kind, ns, name, uid, rv string
}

func (e *env) snapshot() snapshot { return e.snapshotOf(setName) }

func (e *env) snapshotOf(set string) snapshot {
	e.t.Helper()
	ctx := context.Background()
	s := snapshot{members: map[string]member{}}
	p, err := e.admin.Resource(configMaps).Namespace(e.ns).Get(ctx, set, metav1.GetOptions{})
	if err == nil {
		s.parent = p
		s.kinds = list(p.GetAnnotations()[applyset.AnnotationGroupKinds])
		s.namespaces = list(p.GetAnnotations()[applyset.AnnotationNamespaces])
	}
	ap, _ := applyset.ParseParentFlag("configmap/"+set, e.ns)
	for kind, gvr := range memberKinds {
		l, err := e.admin.Resource(gvr).List(ctx, metav1.ListOptions{LabelSelector: applyset.MemberSelector(ap.ID())})
		if err != nil {
			e.t.Fatalf("listing %s of set %s: %v", gvr.Resource, set, err)
		}
		for _, o := range l.Items {
			s.members[strings.ToLower(kind)+"/"+o.GetName()] = member{kind: kind, ns: o.GetNamespace(), name: o.GetName(), uid: string(o.GetUID()), rv: o.GetResourceVersion()}
		}
	}
	return s
}

func list(s string) []string {
	var out []string
	for f := range strings.SplitSeq(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// count is how many of os are members now.
func (s snapshot) count(os_ []obj) int {
	n := 0
	for _, o := range os_ {
		if _, ok := s.members[o.ref()]; ok {
			n++
		}
	}
	return n
}

func (s snapshot) refs() []string {
	refs := make([]string, 0, len(s.members))
	for r := range s.members {
		refs = append(refs, r)
	}
	sort.Strings(refs)
	return refs
}

// countNow counts the members among os as the server has them now.
func (e *env) countNow(os_ []obj) int { return e.snapshot().count(os_) }

// lease is the lock's holder and expiry ("" when there is no Lease).
func (e *env) lease() (holder string, expires time.Time) {
	l, err := e.admin.Resource(leases).Namespace(e.ns).Get(context.Background(), "kubeplan-lock-"+setName, metav1.GetOptions{})
	if err != nil {
		return "", time.Time{}
	}
	holder, _, _ = unstructured.NestedString(l.Object, "spec", "holderIdentity")
	secs, _, _ := unstructured.NestedInt64(l.Object, "spec", "leaseDurationSeconds")
	renew, _, _ := unstructured.NestedString(l.Object, "spec", "renewTime")
	t, _ := time.Parse(time.RFC3339Nano, renew)
	return holder, t.Add(time.Duration(secs) * time.Second)
}

// lockHeld reports whether the set's Lease names a live holder.
func (e *env) lockHeld() bool {
	h, exp := e.lease()
	return h != "" && time.Now().Before(exp)
}

// waitLockFree waits (at most leaseExpiryBound) until no live holder has
// the set's Lease: a killed or cut-off holder leaves it behind until it
// expires, and until then the next apply is refused, as it must be.
func (e *env) waitLockFree() {
	e.t.Helper()
	start := time.Now()
	for e.lockHeld() {
		if time.Since(start) > leaseExpiryBound {
			h, exp := e.lease()
			e.t.Fatalf("the Lease is still held by %s (expires %s) after %s", h, exp.Format(time.RFC3339), leaseExpiryBound)
		}
		time.Sleep(200 * time.Millisecond)
	}
	if d := time.Since(start); d > time.Second {
		e.t.Logf("waited %s for the dead holder's Lease to expire", d.Round(time.Second))
	}
}

// --- the invariants ---

// checkAfterFailure checks (a), (b) and (c) after a faulted run of desired
// from the state before (it left the members in before that are not in
// desired: the prune candidates).
func (e *env) checkAfterFailure(before snapshot, desired []obj) {
	e.t.Helper()
	now := e.snapshot()
	e.t.Logf("after the fault: %d of %d desired objects written, %d of %d members before still there, parent kinds %v",
		now.count(desired), len(desired), len(before.members)-countGone(before, now), len(before.members), now.kinds)
	e.checkNoPruneBeforeWrites(before, now, desired)
	e.checkParentCovers("after the fault", now)
	e.checkBystander()
}

func countGone(before, now snapshot) int {
	n := 0
	for r := range before.members {
		if _, ok := now.members[r]; !ok {
			n++
		}
	}
	return n
}

// (a) A member that left the set may be gone only if every desired object
// was written: prune comes after all applies succeeded.
func (e *env) checkNoPruneBeforeWrites(before, now snapshot, desired []obj) {
	e.t.Helper()
	want := map[string]bool{}
	for _, o := range desired {
		want[o.ref()] = true
	}
	var pruned, missing []string
	for r := range before.members {
		if _, ok := now.members[r]; !ok && !want[r] {
			pruned = append(pruned, r)
		}
	}
	for r := range want {
		if _, ok := now.members[r]; !ok {
			missing = append(missing, r)
		}
	}
	if len(pruned) > 0 && len(missing) > 0 {
		sort.Strings(pruned)
		sort.Strings(missing)
		e.t.Errorf("invariant (a) broken: prune after a failed apply: %d members that left the set were pruned (%s) while %d objects of the new set were never written (%s)",
			len(pruned), short(pruned), len(missing), short(missing))
	}
}

// (b) The parent lists every live member's kind and namespace.
func (e *env) checkParentCovers(when string, s snapshot) {
	e.t.Helper()
	if len(s.members) > 0 && s.parent == nil {
		e.t.Errorf("invariant (b) broken %s: %d members are labelled part-of the set but its parent configmap/%s does not exist", when, len(s.members), setName)
		return
	}
	var kinds, nss []string
	for _, m := range s.members {
		if !slices.Contains(s.kinds, m.kind) && !slices.Contains(kinds, m.kind) {
			kinds = append(kinds, m.kind)
		}
		if m.ns != e.ns && !slices.Contains(s.namespaces, m.ns) && !slices.Contains(nss, m.ns) {
			nss = append(nss, m.ns)
		}
	}
	if len(kinds) > 0 {
		e.t.Errorf("invariant (b) broken %s: the parent is narrower than its members: %s=%q lacks %v, which live members have",
			when, applyset.AnnotationGroupKinds, strings.Join(s.kinds, ","), kinds)
	}
	if len(nss) > 0 {
		e.t.Errorf("invariant (b) broken %s: the parent is narrower than its members: %s=%q lacks %v, where live members are",
			when, applyset.AnnotationNamespaces, strings.Join(s.namespaces, ","), nss)
	}
}

// (c) The bystander set and its parent are as they were.
func (e *env) checkBystander() {
	e.t.Helper()
	now := e.snapshotOf(otherName)
	if now.parent == nil || now.parent.GetResourceVersion() != e.other.parent.GetResourceVersion() {
		e.t.Errorf("invariant (c) broken: the parent of another set (configmap/%s) was touched or deleted", otherName)
	}
	for r, m := range e.other.members {
		if n, ok := now.members[r]; !ok {
			e.t.Errorf("invariant (c) broken: %s of another set was deleted", r)
		} else if n.uid != m.uid || n.rv != m.rv {
			e.t.Errorf("invariant (c) broken: %s of another set was written (resourceVersion %s -> %s)", r, m.rv, n.rv)
		}
	}
	if len(now.members) != len(e.other.members) {
		e.t.Errorf("invariant (c) broken: another set went from %v to %v", e.other.refs(), now.refs())
	}
}

// converge is (d): heal the proxy, wait for a dead holder's Lease, apply
// desired again: exit 0, creating exactly the desired objects that are
// missing and pruning exactly the members that left; then the set is
// exactly desired and (b), (c) hold.
func (e *env) converge(desired []obj) {
	e.t.Helper()
	e.proxy.Heal()
	e.proxy.Latency(0)
	e.waitLockFree()
	before := e.snapshot()
	want := map[string]bool{}
	var wantCreated, wantPruned []string
	for _, o := range desired {
		want[o.ref()] = true
		if _, ok := before.members[o.ref()]; !ok {
			wantCreated = append(wantCreated, o.ref())
		}
	}
	for r := range before.members {
		if !want[r] {
			wantPruned = append(wantPruned, r)
		}
	}
	sort.Strings(wantCreated)
	sort.Strings(wantPruned)
	r := e.start(e.corpus(desired...))
	if code := r.wait(runBound); code != 0 {
		e.t.Fatalf("invariant (d) broken: the healed run exited %d after %s, want 0\n%s", code, r.elapsed(), r.output())
	}
	if got := r.outcomes("created"); !slices.Equal(got, wantCreated) {
		e.t.Errorf("invariant (d) broken: the healed run created %d objects (%s), want exactly the %d missing (%s)",
			len(got), short(got), len(wantCreated), short(wantCreated))
	}
	if got := r.outcomes("pruned"); !slices.Equal(got, wantPruned) {
		e.t.Errorf("invariant (d) broken: the healed run pruned %d objects (%s), want exactly the %d that left (%s)",
			len(got), short(got), len(wantPruned), short(wantPruned))
	}
	after := e.snapshot()
	var wantRefs []string
	for r := range want {
		wantRefs = append(wantRefs, r)
	}
	sort.Strings(wantRefs)
	if got := after.refs(); !slices.Equal(got, wantRefs) {
		e.t.Errorf("invariant (d) broken: after the healed run the set has %d members, want exactly the %d desired\n got: %s\nwant: %s",
			len(got), len(wantRefs), short(got), short(wantRefs))
	}
	e.checkParentCovers("after the healed run", after)
	e.checkBystander()
}

// short lists at most a few refs.
func short(refs []string) string {
	if len(refs) > 6 {
		return strings.Join(refs[:6], ", ") + fmt.Sprintf(", ... (%d more)", len(refs)-6)
	}
	return strings.Join(refs, ", ")
}

// syncBuffer is a bytes.Buffer safe for a process to write while the test reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
