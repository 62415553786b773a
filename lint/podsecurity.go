package lint

import (
	"fmt"
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
// "restricted:v1.24", "restricted:latest") as a namespace label and its
// -version label read.
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
	if p == nil {
		return psaapi.Policy{Enforce: orPrivileged(psaapi.LevelVersion{}), Warn: orPrivileged(psaapi.LevelVersion{}), Audit: orPrivileged(psaapi.LevelVersion{})}
	}
	return psaapi.Policy{Enforce: orPrivileged(p.Enforce), Warn: orPrivileged(p.Warn), Audit: orPrivileged(p.Audit)}
}

// The evaluator is the API server's, built once per process: building it
// inflates every check for every version.
var (
	psaOnce      sync.Once
	psaEvaluator policy.Evaluator
	psaErr       error
)

func podSecurityEvaluator() (policy.Evaluator, error) {
	psaOnce.Do(func() {
		psaEvaluator, psaErr = policy.NewEvaluator(policy.DefaultChecks(), nil)
	})
	return psaEvaluator, psaErr
}

// podSecurityRun gathers, through Options.Loaded, what the rule needs: the
// pod-security labels of the Namespaces in the set and the objects that
// hold a pod template. The objects are judged at the end, when every
// Namespace is known, whatever order the files came in; only those in a
// namespace that has a level are evaluated.
type podSecurityRun struct {
	settings  *PodSecurity
	namespace string // the set's namespace, for objects that name none
	mu        sync.Mutex
	labels    map[string]map[string]string // Namespace name -> its labels
	pods      []*manifest.Object
}

// newPodSecurityRun returns nil when the rule is off.
func newPodSecurityRun(opts Options) *podSecurityRun {
	if ruleOff(opts, rulePodSecurity) {
		return nil
	}
	return &podSecurityRun{settings: opts.PodSecurity, namespace: opts.Namespace, labels: map[string]map[string]string{}}
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

func (r *podSecurityRun) add(objs []*manifest.Object) {
	for _, o := range objs {
		if o.Kind == "Namespace" && o.Group() == "" && o.Name != "" {
			labels := podSecurityLabels(o)
			r.mu.Lock()
			r.labels[o.Name] = labels
			r.mu.Unlock()
			continue
		}
		if _, ok := podTemplatePaths[o.Group()+"/"+o.Kind]; ok && !r.exemptNamespace(r.namespaceOf(o)) {
			r.mu.Lock()
			r.pods = append(r.pods, o)
			r.mu.Unlock()
		}
	}
}

// podSecurityLabels are o's labels under pod-security.kubernetes.io/.
func podSecurityLabels(o *manifest.Object) map[string]string {
	md, _ := o.Content["metadata"].(map[string]any)
	ls, _ := md["labels"].(map[string]any)
	out := map[string]string{}
	for k, v := range ls {
		if s, ok := v.(string); ok && strings.HasPrefix(k, "pod-security.kubernetes.io/") {
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

// findings judges the gathered pod templates. objs, when not nil, is the
// whole set (Check kept it) and is judged instead.
func (r *podSecurityRun) findings(objs []*manifest.Object, opts Options) ([]Finding, error) {
	if r == nil {
		return nil, nil
	}
	if objs != nil {
		r.pods = nil
		r.add(objs)
	}
	defaults := r.settings.policy()
	policies := map[string]psaapi.Policy{}
	policyOf := func(ns string) psaapi.Policy {
		if p, ok := policies[ns]; ok {
			return p
		}
		p := defaults
		if labels, ok := r.labels[ns]; ok {
			// Labels the API server cannot parse fall back to the defaults
			// mode by mode, as in the admission plugin; the Namespace itself
			// is refused by the API server (schema and invalid-value rules).
			p, _ = psaapi.PolicyToEvaluate(labels, defaults)
		}
		policies[ns] = p
		return p
	}
	var out []Finding
	var eval policy.Evaluator
	for _, o := range r.pods {
		ns := r.namespaceOf(o)
		p := policyOf(ns)
		if p.FullyPrivileged() {
			continue
		}
		if eval == nil {
			var err error
			if eval, err = podSecurityEvaluator(); err != nil {
				return nil, fmt.Errorf("pod security: %w", err)
			}
		}
		out = append(out, r.judge(eval, o, ns, p)...)
	}
	return applySettings(out, nil, opts.Rules), nil
}

// judge evaluates one object's pod template against p as the admission
// plugin does: an enforce violation is an error (the pods are refused); a
// warn or audit violation not already an error is a warning.
func (r *podSecurityRun) judge(eval policy.Evaluator, o *manifest.Object, ns string, p psaapi.Policy) []Finding {
	tmpl := podTemplatePaths[o.Group()+"/"+o.Kind]
	meta, spec, ok := podTemplate(o, tmpl)
	if !ok {
		return nil
	}
	if r.settings != nil && spec.RuntimeClassName != nil && slices.Contains(r.settings.ExemptRuntimeClasses, *spec.RuntimeClassName) {
		return nil
	}
	var out []Finding
	seen := map[string]bool{}
	for _, m := range []struct {
		mode string
		lv   psaapi.LevelVersion
		sev  Severity
	}{{"enforce", p.Enforce, Error}, {"warn", p.Warn, Warning}, {"audit", p.Audit, Warning}} {
		if m.lv.Level == psaapi.LevelPrivileged {
			continue
		}
		for _, res := range eval.EvaluatePod(m.lv, meta, spec) {
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
			out = append(out, objectFinding(o, path, m.sev, rulePodSecurity, podSecurityMessage(msg, m.mode, m.lv, ns, r.labels[ns] != nil)))
		}
	}
	return out
}

// podSecurityMessage is the check's own words, then what judged them.
func podSecurityMessage(check, mode string, lv psaapi.LevelVersion, ns string, fromNamespace bool) string {
	where := "kubeplan.yaml's podSecurity or --pod-security"
	if fromNamespace {
		where = "the Namespace in the set"
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

// podTemplate converts o's pod template to the API types the checks read.
// A template that does not convert is left to the schema rule.
func podTemplate(o *manifest.Object, paths [2][]string) (*metav1.ObjectMeta, *corev1.PodSpec, bool) {
	specV, ok := o.Get(paths[1]...)
	specM, _ := specV.(map[string]any)
	if !ok || specM == nil {
		return nil, nil, false
	}
	spec := &corev1.PodSpec{}
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(specM, spec); err != nil {
		return nil, nil, false
	}
	meta := &metav1.ObjectMeta{}
	if mdV, ok := o.Get(paths[0]...); ok {
		if mdM, _ := mdV.(map[string]any); mdM != nil {
			// Only what the checks read: the annotations (AppArmor and the
			// seccomp annotations of old versions).
			if ann, _ := mdM["annotations"].(map[string]any); ann != nil {
				meta.Annotations = map[string]string{}
				for k, v := range ann {
					if s, ok := v.(string); ok {
						meta.Annotations[k] = s
					}
				}
			}
		}
	}
	return meta, spec, true
}
