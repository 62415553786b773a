package lint

import (
	"cmp"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"sync"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	psaapi "k8s.io/pod-security-admission/api"
	"k8s.io/pod-security-admission/policy"

	"github.com/kubeplan/kubeplan/manifest"
)

// rulePodSecurity judges pod templates as Pod Security Admission will
// judge the pods made from them.
const rulePodSecurity = "pod-security"

// podSecurityLabelPrefix begins the labels a Namespace sets its levels with.
const podSecurityLabelPrefix = "pod-security.kubernetes.io/"

// PodSecurity are the Pod Security Admission settings lint judges pod
// templates with when the set does not say otherwise: the defaults of the
// API server's AdmissionConfiguration (a Namespace in the set overrides
// them mode by mode with its pod-security.kubernetes.io labels, as the API
// server does) and its exemptions. A zero LevelVersion is privileged.
type PodSecurity struct {
	Enforce, Warn, Audit psaapi.LevelVersion
	// ExemptNamespaces and ExemptRuntimeClasses are never judged, as in
	// the AdmissionConfiguration's exemptions (usernames mean nothing
	// offline).
	ExemptNamespaces     []string
	ExemptRuntimeClasses []string
}

// ParsePodSecurityLevel reads LEVEL[:VERSION] ("baseline",
// "restricted:v1.24", "restricted:latest"), the values a Namespace's
// pod-security.kubernetes.io/<mode> and <mode>-version labels take; no
// VERSION is latest.
func ParsePodSecurityLevel(s string) (psaapi.LevelVersion, error) {
	level, version, _ := strings.Cut(s, ":")
	l, err := psaapi.ParseLevel(level)
	if err != nil {
		return psaapi.LevelVersion{}, fmt.Errorf("pod security level %q: want privileged, baseline or restricted", level)
	}
	v := psaapi.LatestVersion()
	if version != "" {
		if v, err = psaapi.ParseVersion(version); err != nil {
			return psaapi.LevelVersion{}, fmt.Errorf("pod security version %q: want latest or v1.N", version)
		}
	}
	return psaapi.LevelVersion{Level: l, Version: v}, nil
}

// policy is the AdmissionConfiguration defaults, privileged where unset.
func (p *PodSecurity) policy() psaapi.Policy {
	orPrivileged := func(lv psaapi.LevelVersion) psaapi.LevelVersion {
		if lv.Level == "" {
			return psaapi.LevelVersion{Level: psaapi.LevelPrivileged, Version: psaapi.LatestVersion()}
		}
		return lv
	}
	var q PodSecurity
	if p != nil {
		q = *p
	}
	return psaapi.Policy{Enforce: orPrivileged(q.Enforce), Warn: orPrivileged(q.Warn), Audit: orPrivileged(q.Audit)}
}

// psaEvaluators are the API server's evaluators, one per Kubernetes
// version lint checks against, each built once per process: building one
// inflates every check for every version.
var psaEvaluators sync.Map // kube version -> func() (policy.Evaluator, error)

// podSecurityEvaluator is the evaluator of the API server of kubeVersion
// ("1.33"; "" is the newest): "latest" is that server's own version, as
// it is for a cluster running it.
func podSecurityEvaluator(kubeVersion string) (policy.Evaluator, error) {
	build, _ := psaEvaluators.LoadOrStore(kubeVersion, sync.OnceValues(func() (policy.Evaluator, error) {
		var emulate *psaapi.Version
		if kubeVersion != "" {
			v, err := psaapi.ParseVersion("v" + kubeVersion)
			if err != nil {
				return nil, fmt.Errorf("kube version %q: %w", kubeVersion, err)
			}
			emulate = &v
		}
		return policy.NewEvaluator(policy.DefaultChecks(), emulate)
	}))
	return build.(func() (policy.Evaluator, error))()
}

// podSecurityRun judges pod templates while the set streams through lint,
// in the loading goroutines, with the levels known when each object is
// loaded: its namespace's Namespace when already seen, else the defaults.
// A Namespace of the set may come after the workloads it holds; then the
// findings of that namespace are dropped at the end and its workloads
// alone are read again and judged with the Namespace's levels. Nothing is
// kept of an object but its findings, so memory stays flat; a namespace
// without levels costs one map lookup per object.
type podSecurityRun struct {
	settings    *PodSecurity
	kubeVersion string
	defaults    psaapi.Policy
	namespace   string // the set's namespace, for objects that name none
	stdinName   string // objects read from standard input cannot be read again
	mu          sync.Mutex
	labels      map[string]map[string]string // Namespace name -> its pod-security labels
	// live reads a live Namespace's labels (Options.LiveNamespaceLabels),
	// once per namespace: liveLabels holds what it read (nil: none).
	live       func(string) (map[string]string, bool)
	liveRead   map[string]func() map[string]string
	liveLabels map[string]map[string]string
	// used are, by namespace, the policies its objects were judged with.
	used  map[string]map[psaapi.Policy]bool
	found map[string][]Finding // namespace -> findings
	// files are, by namespace, the files of the pod templates judged: a
	// redo reads only those of the plain files again (streamObjectsIn).
	files map[string]map[string]bool
	stdin []*manifest.Object
	rules map[string]RuleSetting
	err   error
	// templates are the pod templates converted so far (podTemplate).
	templates templateCache
}

// newPodSecurityRun returns nil when the rule is off.
func newPodSecurityRun(in Input, opts Options) *podSecurityRun {
	if ruleOff(opts, rulePodSecurity) {
		return nil
	}
	r := &podSecurityRun{settings: opts.PodSecurity, kubeVersion: opts.KubeVersion, defaults: opts.PodSecurity.policy(), namespace: opts.Namespace, stdinName: "<stdin>",
		rules: opts.Rules, labels: map[string]map[string]string{}, used: map[string]map[psaapi.Policy]bool{}, found: map[string][]Finding{}, files: map[string]map[string]bool{},
		live: opts.LiveNamespaceLabels, liveRead: map[string]func() map[string]string{}, liveLabels: map[string]map[string]string{}}
	if in.Rename != nil {
		r.stdinName = in.Rename(r.stdinName)
	}
	return r
}

func (r *podSecurityRun) wrap(next func([]*manifest.Object)) func([]*manifest.Object) {
	if r == nil {
		return next
	}
	return func(objs []*manifest.Object) {
		r.add(objs)
		if next != nil {
			next(objs)
		}
	}
}

// add notes the Namespaces of a batch, then judges its pod templates.
func (r *podSecurityRun) add(objs []*manifest.Object) {
	for _, o := range objs {
		if o.Kind == "Namespace" && o.Group() == "" && o.Name != "" {
			labels := podSecurityLabels(o)
			r.mu.Lock()
			r.labels[o.Name] = labels
			r.mu.Unlock()
		}
	}
	for _, o := range objs {
		if _, ok := podTemplatePaths[o.Group()+"/"+o.Kind]; !ok {
			continue
		}
		ns := r.namespaceOf(o)
		if r.exemptNamespace(ns) {
			continue
		}
		r.readLive(ns)
		r.mu.Lock()
		p := r.policyLocked(ns)
		if r.used[ns] == nil {
			r.used[ns] = map[psaapi.Policy]bool{}
		}
		r.used[ns][p] = true
		if o.File != r.stdinName { // judged again from r.stdin
			if r.files[ns] == nil {
				r.files[ns] = map[string]bool{}
			}
			r.files[ns][o.File] = true
		}
		if o.File == r.stdinName {
			r.stdin = append(r.stdin, o)
		}
		r.mu.Unlock()
		if p.FullyPrivileged() {
			continue
		}
		fs, err := r.judge(o, ns, p)
		r.mu.Lock()
		r.found[ns] = append(r.found[ns], fs...)
		if r.err == nil {
			r.err = err
		}
		r.mu.Unlock()
	}
}

// readLive reads the live Namespace ns once (Options.LiveNamespaceLabels),
// outside the lock: the first object of a namespace waits for the read,
// the others of that namespace wait for the same one.
func (r *podSecurityRun) readLive(ns string) {
	if r.live == nil || ns == "" {
		return
	}
	r.mu.Lock()
	read := r.liveRead[ns]
	if read == nil {
		read = sync.OnceValue(func() map[string]string {
			labels, ok := r.live(ns)
			if !ok {
				return nil
			}
			out := map[string]string{}
			for k, v := range labels {
				if strings.HasPrefix(k, podSecurityLabelPrefix) {
					out[k] = v
				}
			}
			return out
		})
		r.liveRead[ns] = read
	}
	r.mu.Unlock()
	labels := read()
	r.mu.Lock()
	r.liveLabels[ns] = labels
	r.mu.Unlock()
}

// labelsLocked are the pod-security labels that judge namespace ns, and
// where they come from: the Namespace in the set (applied before the pod
// templates it holds), else the live one, else none.
func (r *podSecurityRun) labelsLocked(ns string) (map[string]string, string) {
	if labels, ok := r.labels[ns]; ok {
		return labels, "the Namespace in the set"
	}
	if labels := r.liveLabels[ns]; labels != nil {
		return labels, "the live Namespace"
	}
	return nil, ""
}

// policyLocked is the policy of namespace ns as known now: its
// Namespace's labels over the defaults, mode by mode, as the admission
// plugin reads them. Labels the API server cannot parse fall back to the
// defaults (the Namespace itself is refused: schema and invalid-value).
func (r *podSecurityRun) policyLocked(ns string) psaapi.Policy {
	labels, _ := r.labelsLocked(ns)
	if len(labels) == 0 {
		return r.defaults
	}
	p, _ := psaapi.PolicyToEvaluate(labels, r.defaults)
	return p
}

// podSecurityLabels are o's labels under pod-security.kubernetes.io/.
func podSecurityLabels(o *manifest.Object) map[string]string {
	md, _ := o.Content["metadata"].(map[string]any)
	ls, _ := md["labels"].(map[string]any)
	out := map[string]string{}
	for k, v := range ls {
		if s, ok := v.(string); ok && strings.HasPrefix(k, podSecurityLabelPrefix) {
			out[k] = s
		}
	}
	return out
}

func (r *podSecurityRun) namespaceOf(o *manifest.Object) string {
	if o.Namespace != "" {
		return o.Namespace
	}
	return r.namespace
}

func (r *podSecurityRun) exemptNamespace(ns string) bool {
	return r.settings != nil && ns != "" && slices.Contains(r.settings.ExemptNamespaces, ns)
}

// findings are the rule's findings once the whole set was seen. The
// namespaces whose Namespace came after some of their workloads are judged
// again with its levels: from objs when Check kept the set, else read
// again from paths (in, paths as vapRun.findings has them).
func (r *podSecurityRun) findings(in Input, paths []string, objs []*manifest.Object, opts Options) ([]Finding, error) {
	if r == nil {
		return nil, nil
	}
	if r.err != nil {
		return nil, r.err
	}
	redo := map[string]bool{}
	for ns, used := range r.used {
		final := r.policyLocked(ns)
		for p := range used {
			if p != final {
				redo[ns] = true
				delete(r.found, ns)
			}
		}
	}
	var out []Finding
	for _, fs := range r.found {
		out = append(out, fs...)
	}
	if len(redo) > 0 {
		again := func(o *manifest.Object) bool {
			_, ok := podTemplatePaths[o.Group()+"/"+o.Kind]
			return ok && redo[r.namespaceOf(o)]
		}
		if objs != nil {
			fs, err := r.judgeAgain(slices.DeleteFunc(slices.Clone(objs), func(o *manifest.Object) bool { return !again(o) }))
			if err != nil {
				return nil, err
			}
			out = append(out, fs...)
		} else {
			// Judged file by file as read, so that no file's objects are
			// kept past its batch.
			paths = slices.DeleteFunc(slices.Clone(paths), func(p string) bool { return p == "-" })
			files := map[string]bool{}
			for ns := range redo {
				maps.Copy(files, r.files[ns])
			}
			var mu sync.Mutex
			var judgeErr error
			judgeBatch := func(batch []*manifest.Object) {
				fs, err := r.judgeAgain(slices.DeleteFunc(slices.Clone(batch), func(o *manifest.Object) bool { return !again(o) }))
				mu.Lock()
				defer mu.Unlock()
				out = append(out, fs...)
				judgeErr = cmp.Or(judgeErr, err)
			}
			if _, err := streamObjectsIn(paths, in, opts.Concurrency, files, func(*manifest.Object) bool { return false }, judgeBatch); err != nil {
				return nil, err
			}
			judgeBatch(r.stdin)
			if judgeErr != nil {
				return nil, judgeErr
			}
		}
	}
	return out, nil
}

// judgeAgain judges pods with their namespaces' final policies. It is safe
// to call from several goroutines.
func (r *podSecurityRun) judgeAgain(pods []*manifest.Object) ([]Finding, error) {
	var out []Finding
	for _, o := range pods {
		ns := r.namespaceOf(o)
		r.mu.Lock()
		p := r.policyLocked(ns)
		r.mu.Unlock()
		if p.FullyPrivileged() {
			continue
		}
		fs, err := r.judge(o, ns, p)
		if err != nil {
			return nil, err
		}
		out = append(out, fs...)
	}
	return out, nil
}

// judge evaluates one object's pod template against p as the admission
// plugin does: an enforce violation is an error (the pods are refused); a
// warn or audit violation not already an error is a warning.
func (r *podSecurityRun) judge(o *manifest.Object, ns string, p psaapi.Policy) ([]Finding, error) {
	eval, err := podSecurityEvaluator(r.kubeVersion)
	if err != nil {
		return nil, fmt.Errorf("pod security: %w", err)
	}
	tmpl := podTemplatePaths[o.Group()+"/"+o.Kind]
	meta, spec, ok := podTemplate(o, tmpl, &r.templates)
	if !ok {
		return nil, nil
	}
	if r.settings != nil && spec.RuntimeClassName != nil && slices.Contains(r.settings.ExemptRuntimeClasses, *spec.RuntimeClassName) {
		return nil, nil
	}
	r.mu.Lock()
	labels, from := r.labelsLocked(ns)
	r.mu.Unlock()
	var out []Finding
	seen := map[string]bool{}
	// warn and audit are often the same level: evaluated once.
	results := map[psaapi.LevelVersion][]policy.CheckResult{}
	for _, m := range []struct {
		mode string
		lv   psaapi.LevelVersion
		sev  Severity
	}{{"enforce", p.Enforce, Error}, {"warn", p.Warn, Warning}, {"audit", p.Audit, Warning}} {
		if m.lv.Level == psaapi.LevelPrivileged {
			continue
		}
		rs, done := results[m.lv]
		if !done {
			rs = eval.EvaluatePod(m.lv, meta, spec)
			results[m.lv] = rs
		}
		for _, res := range rs {
			if res.Allowed {
				continue
			}
			msg := res.ForbiddenReason
			if res.ForbiddenDetail != "" {
				msg += " (" + res.ForbiddenDetail + ")"
			}
			if seen[msg] {
				continue
			}
			seen[msg] = true
			path := violationPath(o, tmpl, res)
			out = append(out, objectFinding(o, path, m.sev, rulePodSecurity, podSecurityMessage(msg, m.mode, m.lv, ns, labelFrom(labels, from, m.mode))))
		}
	}
	// The object's kubeplan.dev/ignore annotation and the rule's setting.
	return applySettings(out, []*manifest.Object{o}, r.rules), nil
}

// labelFrom is where mode's level comes from: from, when the labels set
// it, else the defaults ("").
func labelFrom(labels map[string]string, from, mode string) string {
	if labels[podSecurityLabelPrefix+mode] != "" {
		return from
	}
	return ""
}

// podSecurityMessage is the check's own words, then what judged them:
// from names the Namespace whose label set the level, "" for the defaults.
func podSecurityMessage(check, mode string, lv psaapi.LevelVersion, ns string, from string) string {
	where := "kubeplan.yaml's podSecurity or --pod-security"
	if from != "" {
		where = from
	}
	in := "the namespace"
	if ns != "" {
		in = fmt.Sprintf("namespace %q", ns)
	}
	consequence := "the API server will warn"
	if mode == "enforce" {
		consequence = "the API server will refuse the pods"
	} else if mode == "audit" {
		consequence = "the API server will record it in the audit log"
	}
	return fmt.Sprintf("%s: violates PodSecurity %q, which %s sets to %s (from %s); %s", check, lv.String(), in, mode, where, consequence)
}

// podTemplatePaths maps "group/Kind" to where the object keeps its pod
// template's metadata and spec: the kinds the admission plugin's
// DefaultPodSpecExtractor reads.
var podTemplatePaths = func() map[string][2][]string {
	tmpl := [2][]string{{"spec", "template", "metadata"}, {"spec", "template", "spec"}}
	return map[string][2][]string{
		"/Pod":                   {{"metadata"}, {"spec"}},
		"/PodTemplate":           {{"template", "metadata"}, {"template", "spec"}},
		"/ReplicationController": tmpl,
		"apps/Deployment":        tmpl,
		"apps/StatefulSet":       tmpl,
		"apps/DaemonSet":         tmpl,
		"apps/ReplicaSet":        tmpl,
		"batch/Job":              tmpl,
		"batch/CronJob":          {{"spec", "jobTemplate", "spec", "template", "metadata"}, {"spec", "jobTemplate", "spec", "template", "spec"}},
	}
}()

// podTemplate converts o's pod template to the API types the checks read,
// only what they read (checkedFields, checkedAnnotations). A template that
// does not convert is left to the schema rule. Templates that are the same
// in what the checks read (the Deployments of a repository mostly are) are
// converted once: cache holds them by that content.
func podTemplate(o *manifest.Object, paths [2][]string, cache *templateCache) (*metav1.ObjectMeta, *corev1.PodSpec, bool) {
	specV, ok := o.Get(paths[1]...)
	specM, _ := specV.(map[string]any)
	if !ok || specM == nil {
		return nil, nil, false
	}
	var ann map[string]string
	if mdV, ok := o.Get(paths[0]...); ok {
		if mdM, _ := mdV.(map[string]any); mdM != nil {
			ann = checkedAnnotations(mdM["annotations"])
		}
	}
	checked := checkedFields(specM)
	key, err := json.Marshal([]any{checked, ann})
	if err != nil {
		return nil, nil, false
	}
	if t, ok := cache.get(string(key)); ok {
		return t.meta, t.spec, t.ok
	}
	t := convertedTemplate{meta: &metav1.ObjectMeta{Annotations: ann}, spec: &corev1.PodSpec{}}
	t.ok = runtime.DefaultUnstructuredConverter.FromUnstructured(checked, t.spec) == nil
	cache.put(string(key), t)
	return t.meta, t.spec, t.ok
}

// checkedAnnotations are the annotations the checks read: AppArmor's and
// the seccomp annotations of old versions.
func checkedAnnotations(v any) map[string]string {
	ann, _ := v.(map[string]any)
	var out map[string]string
	for k, v := range ann {
		s, ok := v.(string)
		if !ok || !strings.HasPrefix(k, "container.apparmor.security.beta.kubernetes.io/") && !strings.Contains(k, "seccomp.security.alpha.kubernetes.io/") {
			continue
		}
		if out == nil {
			out = map[string]string{}
		}
		out[k] = s
	}
	return out
}

// maxCachedTemplates bounds templateCache: distinct templates past it are
// converted each time.
const maxCachedTemplates = 4096

// templateCache holds converted templates by what the checks read of them;
// the checks only read what they are given, so one conversion serves all.
type templateCache struct {
	mu sync.Mutex
	m  map[string]convertedTemplate
}

type convertedTemplate struct {
	meta *metav1.ObjectMeta
	spec *corev1.PodSpec
	ok   bool
}

func (c *templateCache) get(key string) (convertedTemplate, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	t, ok := c.m[key]
	return t, ok
}

func (c *templateCache) put(key string, t convertedTemplate) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.m == nil {
		c.m = map[string]convertedTemplate{}
	}
	if len(c.m) < maxCachedTemplates {
		c.m[key] = t
	}
}

// The fields of a pod spec and of its containers that the checks of
// k8s.io/pod-security-admission read (policy/check_*.go at the pinned
// version), and runtimeClassName for the exemptions. Only these are
// converted: a container's env, args, resources and the like cost most of
// the conversion and no check reads them (TestCheckedFieldsKeepVerdicts,
// and the differential test in test/psadiff judges pods through this path).
var (
	podCheckedFields = map[string]bool{
		"securityContext": true, "hostNetwork": true, "hostPID": true, "hostIPC": true, "hostUsers": true,
		"os": true, "volumes": true, "containers": true, "initContainers": true, "ephemeralContainers": true,
		"runtimeClassName": true,
	}
	containerCheckedFields = map[string]bool{
		"name": true, "securityContext": true, "ports": true,
		"lifecycle": true, "livenessProbe": true, "readinessProbe": true, "startupProbe": true,
	}
)

// checkedFields is spec with only what the checks read: a copy of the
// maps it changes, never a change to the object. Within what is kept, a
// probe or lifecycle handler keeps only its httpGet and tcpSocket hosts,
// a port its hostPort, and a volume its name and which source it has
// (the checks ask only whether a source is set).
func checkedFields(spec map[string]any) map[string]any {
	out := make(map[string]any, len(podCheckedFields))
	for k, v := range spec {
		if !podCheckedFields[k] {
			continue
		}
		switch k {
		case "containers", "initContainers", "ephemeralContainers":
			v = mapList(v, checkedContainer)
		case "volumes":
			v = mapList(v, volumeSources)
		}
		out[k] = v
	}
	return out
}

// mapList is list with f applied to each map in it; anything else as it
// is (the conversion then refuses it as the API server would).
func mapList(v any, f func(map[string]any) map[string]any) any {
	list, ok := v.([]any)
	if !ok {
		return v
	}
	out := make([]any, len(list))
	for i, item := range list {
		out[i] = item
		if m, ok := item.(map[string]any); ok {
			out[i] = f(m)
		}
	}
	return out
}

func checkedContainer(c map[string]any) map[string]any {
	kept := make(map[string]any, len(containerCheckedFields))
	for k, v := range c {
		if !containerCheckedFields[k] {
			continue
		}
		switch k {
		case "livenessProbe", "readinessProbe", "startupProbe":
			v = handlerHosts(v)
		case "lifecycle":
			if m, ok := v.(map[string]any); ok {
				v = map[string]any{"postStart": handlerHosts(m["postStart"]), "preStop": handlerHosts(m["preStop"])}
			}
		case "ports":
			v = mapList(v, func(p map[string]any) map[string]any {
				if hp, ok := p["hostPort"]; ok {
					return map[string]any{"hostPort": hp}
				}
				return map[string]any{}
			})
		}
		kept[k] = v
	}
	return kept
}

// handlerHosts is a probe or lifecycle handler with only the hosts of its
// httpGet and tcpSocket (check hostProbesAndHostLifecycle).
func handlerHosts(v any) any {
	m, ok := v.(map[string]any)
	if !ok {
		return v
	}
	out := map[string]any{}
	for _, k := range []string{"httpGet", "tcpSocket"} {
		if h, ok := m[k].(map[string]any); ok {
			if host, ok := h["host"]; ok {
				out[k] = map[string]any{"host": host}
			}
		}
	}
	return out
}

// volumeSources is a volume's name and an empty mapping for each source
// it sets (checks hostPathVolumes and restrictedVolumes ask only which).
func volumeSources(vol map[string]any) map[string]any {
	out := make(map[string]any, 2)
	for k, v := range vol {
		if _, isMap := v.(map[string]any); isMap && k != "name" {
			v = map[string]any{}
		}
		out[k] = v
	}
	return out
}
