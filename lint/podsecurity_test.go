package lint

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// restrictedDeployment is a restricted-compliant Deployment in namespace
// apps; the cases edit it (edited).
const restrictedDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: apps
spec:
  selector:
    matchLabels: {app: web}
  template:
    metadata:
      labels: {app: web}
    spec:
      securityContext:
        runAsNonRoot: true
        seccompProfile:
          type: RuntimeDefault
      containers:
        - name: web
          image: nginx:1.27
          ports:
            - containerPort: 8080
          securityContext:
            allowPrivilegeEscalation: false
            capabilities:
              drop: ["ALL"]
`

// edited is s with each edits pair (old, new) replaced once.
func edited(t *testing.T, s string, edits ...string) string {
	t.Helper()
	for i := 0; i+1 < len(edits); i += 2 {
		if !strings.Contains(s, edits[i]) {
			t.Fatalf("fixture has no %q", edits[i])
		}
		s = strings.Replace(s, edits[i], edits[i+1], 1)
	}
	return s
}

// psaFindings lints files (name -> content) with opts, kept and streamed,
// and returns the pod-security findings as "file:line:col severity:
// check" (the check's own words, before the ": violates" that follows).
func psaFindings(t *testing.T, files map[string]string, opts Options) []string {
	t.Helper()
	dir := t.TempDir()
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// One file at a time, in name order: a Namespace in a file after its
	// workloads' is seen after they were judged (the second read).
	opts.Concurrency = 1
	if opts.KubeVersion == "" {
		opts.KubeVersion = "1.37"
	}
	var got [2][]string
	for i, keep := range []bool{false, true} {
		rep, _, err := Check(Input{Paths: []string{dir}, KeepObjects: keep}, opts)
		if err != nil {
			t.Fatal(err)
		}
		for _, f := range rep.Findings {
			if f.Rule != rulePodSecurity {
				continue
			}
			check, _, ok := strings.Cut(f.Message, ": violates PodSecurity")
			if !ok {
				t.Errorf("message %q does not say which level it violates", f.Message)
			}
			got[i] = append(got[i], fmt.Sprintf("%s:%d:%d %s: %s", filepath.Base(f.File), f.Line, f.Col, f.Severity, check))
		}
	}
	if !slices.Equal(got[0], got[1]) {
		t.Errorf("streamed lint found\n%s\nkept lint found\n%s", strings.Join(got[0], "\n"), strings.Join(got[1], "\n"))
	}
	return got[0]
}

// level is a PodSecurity enforcing s (LEVEL[:VERSION]).
func level(t *testing.T, s string) PodSecurity {
	t.Helper()
	lv, err := ParsePodSecurityLevel(s)
	if err != nil {
		t.Fatal(err)
	}
	return PodSecurity{Enforce: lv}
}

func TestPodSecurity(t *testing.T) {
	restricted, baseline := level(t, "restricted"), level(t, "baseline")
	restricted121 := level(t, "restricted:v1.21")
	warnRestricted := PodSecurity{Warn: restricted.Enforce}
	privilegedDaemonSet := `apiVersion: apps/v1
kind: DaemonSet
metadata:
  name: node-agent
  namespace: monitoring
spec:
  selector:
    matchLabels: {app: node-agent}
  template:
    metadata:
      labels: {app: node-agent}
    spec:
      hostNetwork: true
      hostPID: true
      containers:
        - name: agent
          image: ghcr.io/example/agent:2.1
          securityContext:
            privileged: true
          ports:
            - containerPort: 9100
              hostPort: 9100
      volumes:
        - name: proc
          hostPath: {path: /proc}
        - name: config
          configMap: {name: agent}
`
	cronJob := `apiVersion: batch/v1
kind: CronJob
metadata:
  name: backup
  namespace: apps
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          restartPolicy: OnFailure
          securityContext:
            runAsUser: 0
          containers:
            - name: backup
              image: ghcr.io/example/backup:1.0
`
	labelled := func(labels string) string {
		return "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: apps\n  labels:\n" + labels
	}
	tests := []struct {
		name  string
		files map[string]string
		ps    *PodSecurity
		want  []string
	}{
		{name: "restricted-compliant Deployment", files: map[string]string{"web.yaml": restrictedDeployment}, ps: &restricted},
		{name: "no levels: the rule does nothing", files: map[string]string{"ds.yaml": privilegedDaemonSet}},
		{name: "privileged DaemonSet under baseline", files: map[string]string{"ds.yaml": privilegedDaemonSet}, ps: &baseline, want: []string{
			`ds.yaml:13:20 error: host namespaces (hostNetwork=true, hostPID=true)`,
			`ds.yaml:19:25 error: privileged (container "agent" must not set securityContext.privileged=true)`,
			`ds.yaml:22:25 error: hostPort (container "agent" uses hostPort 9100)`,
			`ds.yaml:25:11 error: hostPath volumes (volume "proc")`,
		}},
		{name: "added capability under baseline", ps: &baseline, files: map[string]string{"web.yaml": edited(t, restrictedDeployment,
			`drop: ["ALL"]`, "drop: [\"ALL\"]\n              add: [\"NET_ADMIN\", \"NET_BIND_SERVICE\"]")},
			want: []string{`web.yaml:26:15 error: non-default capabilities (container "web" must not include "NET_ADMIN" in securityContext.capabilities.add)`}},
		{name: "NET_BIND_SERVICE alone is allowed by restricted", ps: &restricted, files: map[string]string{"web.yaml": edited(t, restrictedDeployment,
			`drop: ["ALL"]`, "drop: [\"ALL\"]\n              add: [\"NET_BIND_SERVICE\"]")}},
		{name: "capabilities not dropped under restricted", ps: &restricted, files: map[string]string{"web.yaml": edited(t, restrictedDeployment,
			`drop: ["ALL"]`, `drop: ["NET_RAW"]`)},
			want: []string{`web.yaml:25:15 error: unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"])`}},
		{name: "seccomp Unconfined under baseline", ps: &baseline, files: map[string]string{"web.yaml": edited(t, restrictedDeployment,
			`type: RuntimeDefault`, `type: Unconfined`)},
			want: []string{`web.yaml:16:17 error: seccompProfile (pod must not set securityContext.seccompProfile.type to "Unconfined")`}},
		{name: "runAsNonRoot false under restricted", ps: &restricted, files: map[string]string{"web.yaml": edited(t, restrictedDeployment,
			`runAsNonRoot: true`, `runAsNonRoot: false`)},
			want: []string{`web.yaml:14:23 error: runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false)`}},
		{name: "a CronJob running as root under restricted", ps: &restricted, files: map[string]string{"cron.yaml": cronJob}, want: []string{
			`cron.yaml:13:11 error: runAsNonRoot != true (pod or container "backup" must set securityContext.runAsNonRoot=true)`,
			`cron.yaml:13:11 error: seccompProfile (pod or container "backup" must set securityContext.seccompProfile.type to "RuntimeDefault" or "Localhost")`,
			`cron.yaml:14:24 error: runAsUser=0 (pod must not set runAsUser=0)`,
			`cron.yaml:16:15 error: allowPrivilegeEscalation != false (container "backup" must set securityContext.allowPrivilegeEscalation=false)`,
			`cron.yaml:16:15 error: unrestricted capabilities (container "backup" must set securityContext.capabilities.drop=["ALL"])`,
		}},
		{name: "a bare Pod with an unconfined AppArmor annotation under baseline", ps: &baseline, files: map[string]string{"pod.yaml": `apiVersion: v1
kind: Pod
metadata:
  name: debug
  namespace: apps
  annotations:
    container.apparmor.security.beta.kubernetes.io/shell: unconfined
spec:
  containers:
    - name: shell
      image: busybox:1.36
      securityContext:
        procMount: Unmasked
        capabilities: {add: [SYS_ADMIN]}
`}, want: []string{
			`pod.yaml:7:59 error: forbidden AppArmor profile (annotation must not set AppArmor profile type to "container.apparmor.security.beta.kubernetes.io/shell="unconfined"")`,
			`pod.yaml:13:20 error: procMount (container "shell" must not set securityContext.procMount to "Unmasked")`,
			`pod.yaml:14:24 error: non-default capabilities (container "shell" must not include "SYS_ADMIN" in securityContext.capabilities.add)`,
		}},
		{name: "restricted pinned to v1.21 does not yet require dropping capabilities", ps: &restricted121, files: map[string]string{"web.yaml": edited(t, restrictedDeployment,
			`drop: ["ALL"]`, `drop: ["NET_RAW"]`)}},
		{name: "warn is a warning", ps: &warnRestricted, files: map[string]string{"web.yaml": edited(t, restrictedDeployment,
			`allowPrivilegeEscalation: false`, `allowPrivilegeEscalation: true`)},
			want: []string{`web.yaml:23:39 warning: allowPrivilegeEscalation != false (container "web" must set securityContext.allowPrivilegeEscalation=false)`}},
		{name: "the Namespace's labels, after the workload, override the defaults", ps: &restricted, files: map[string]string{
			"a.yaml": edited(t, restrictedDeployment, `allowPrivilegeEscalation: false`, `privileged: true`),
			"z.yaml": labelled("    pod-security.kubernetes.io/enforce: baseline\n    pod-security.kubernetes.io/warn: privileged\n")},
			want: []string{`a.yaml:23:25 error: privileged (container "web" must not set securityContext.privileged=true)`}},
		{name: "a Namespace enforcing restricted at v1.21, defaults unset", files: map[string]string{
			"a.yaml": edited(t, restrictedDeployment, `drop: ["ALL"]`, `drop: ["NET_RAW"]`, `runAsNonRoot: true`, `runAsNonRoot: false`),
			"ns.yaml": labelled("    pod-security.kubernetes.io/enforce: restricted\n    pod-security.kubernetes.io/enforce-version: v1.21\n" +
				"    pod-security.kubernetes.io/warn: restricted\n")},
			want: []string{
				`a.yaml:14:23 error: runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false)`,
				`a.yaml:25:15 warning: unrestricted capabilities (container "web" must set securityContext.capabilities.drop=["ALL"])`,
			}},
		{name: "an exempt namespace", ps: &PodSecurity{Enforce: baseline.Enforce, ExemptNamespaces: []string{"monitoring"}},
			files: map[string]string{"ds.yaml": privilegedDaemonSet}},
		{name: "an exempt runtime class", ps: &PodSecurity{Enforce: restricted.Enforce, ExemptRuntimeClasses: []string{"kata"}},
			files: map[string]string{"web.yaml": edited(t, restrictedDeployment, `runAsNonRoot: true`, `runAsNonRoot: false`, "    spec:\n", "    spec:\n      runtimeClassName: kata\n")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := psaFindings(t, tt.files, Options{PodSecurity: tt.ps})
			if !slices.Equal(got, tt.want) {
				t.Errorf("got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

func TestPodSecurityRuleOff(t *testing.T) {
	ps := level(t, "restricted")
	got := psaFindings(t, map[string]string{"web.yaml": edited(t, restrictedDeployment, `runAsNonRoot: true`, `runAsNonRoot: false`)},
		Options{PodSecurity: &ps, Rules: map[string]RuleSetting{rulePodSecurity: {Off: true}}})
	if len(got) != 0 {
		t.Errorf("the rule is off, got %q", got)
	}
}

// A finding of the rule is skipped with the object's ignore annotation and
// re-graded as any other.
func TestPodSecuritySettings(t *testing.T) {
	ps := level(t, "restricted")
	broken := edited(t, restrictedDeployment, `runAsNonRoot: true`, `runAsNonRoot: false`)
	ignored := edited(t, broken, "  namespace: apps\n", "  namespace: apps\n  annotations:\n    kubeplan.dev/ignore: image-latest,pod-security\n")
	if got := psaFindings(t, map[string]string{"web.yaml": ignored}, Options{PodSecurity: &ps}); len(got) != 0 {
		t.Errorf("ignored by annotation, got %q", got)
	}
	got := psaFindings(t, map[string]string{"web.yaml": broken}, Options{PodSecurity: &ps, Rules: map[string]RuleSetting{rulePodSecurity: {Severity: Info}}})
	want := []string{`web.yaml:14:23 info: runAsNonRoot != true (pod must not set securityContext.runAsNonRoot=false)`}
	if !slices.Equal(got, want) {
		t.Errorf("re-graded: got %q, want %q", got, want)
	}
}

// "latest" is the version of the API server lint checks against
// (--kube-version): Kubernetes 1.37 allows net.ipv4.tcp_notsent_lowat in
// baseline, 1.36 does not.
func TestPodSecurityKubeVersion(t *testing.T) {
	ps := level(t, "baseline")
	sysctl := edited(t, restrictedDeployment, "        runAsNonRoot: true\n",
		"        runAsNonRoot: true\n        sysctls: [{name: net.ipv4.tcp_notsent_lowat, value: \"16384\"}]\n")
	for _, tc := range []struct {
		kube string
		want []string
	}{
		{"1.37", nil},
		{"1.36", []string{`web.yaml:15:9 error: forbidden sysctls (net.ipv4.tcp_notsent_lowat)`}},
	} {
		got := psaFindings(t, map[string]string{"web.yaml": sysctl}, Options{PodSecurity: &ps, KubeVersion: tc.kube})
		if !slices.Equal(got, tc.want) {
			t.Errorf("Kubernetes %s: got %q, want %q", tc.kube, got, tc.want)
		}
	}
}

func TestParsePodSecurityLevel(t *testing.T) {
	for in, want := range map[string]string{"baseline": "baseline:latest", "restricted:v1.24": "restricted:v1.24", "privileged:latest": "privileged:latest"} {
		lv, err := ParsePodSecurityLevel(in)
		if err != nil || lv.String() != want {
			t.Errorf("%q: got %v, %v; want %s", in, lv, err, want)
		}
	}
	for _, in := range []string{"", "strict", "baseline:1.24x", "restricted:v2"} {
		if _, err := ParsePodSecurityLevel(in); err == nil {
			t.Errorf("%q: want an error", in)
		}
	}
}

// TestPodSecurityLiveNamespace: in plan, the levels of a namespace the set
// does not hold come from the live Namespace (read once per namespace, and
// only for namespaces with pod templates); a Namespace of the set, applied
// first, wins over the live one; a Namespace that cannot be read leaves
// the defaults.
func TestPodSecurityLiveNamespace(t *testing.T) {
	privileged := edited(t, restrictedDeployment, "            allowPrivilegeEscalation: false\n", "            allowPrivilegeEscalation: false\n            privileged: true\n")
	other := edited(t, privileged, "name: web", "name: api", "namespace: apps", "namespace: unread")
	config := "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings, namespace: quiet}\n"
	var mu sync.Mutex
	reads := map[string]int{}
	live := func(name string) (map[string]string, bool) {
		mu.Lock()
		reads[name]++
		mu.Unlock()
		switch name {
		case "apps":
			return map[string]string{"pod-security.kubernetes.io/enforce": "baseline", "team": "web"}, true
		case "quiet":
			return map[string]string{"pod-security.kubernetes.io/enforce": "restricted"}, true
		}
		return nil, false // forbidden or missing
	}
	opts := Options{LiveNamespaceLabels: live}
	got := psaFindings(t, map[string]string{"a.yaml": privileged, "b.yaml": other, "c.yaml": config}, opts)
	want := []string{`a.yaml:24:25 error: privileged (container "web" must not set securityContext.privileged=true)`}
	if !slices.Equal(got, want) {
		t.Errorf("live levels: got\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// psaFindings lints twice (streamed and kept): one read each time.
	if reads["apps"] != 2 || reads["unread"] != 2 || reads["quiet"] != 0 {
		t.Errorf("live Namespaces read %v; want apps and unread once per lint, quiet (no pod template) never", reads)
	}
	rep, _, err := Check(Input{Paths: []string{writeFile(t, "web.yaml", privileged)}}, Options{KubeVersion: "1.37", LiveNamespaceLabels: live})
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Findings) != 1 || !strings.Contains(rep.Findings[0].Message, `violates PodSecurity "baseline:latest", which namespace "apps" sets to enforce (from the live Namespace); the API server will refuse the pods`) {
		t.Errorf("the message must name the live Namespace: %+v", rep.Findings)
	}

	// The set's own Namespace (after the workload, so judged again) wins.
	ns := "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: apps\n  labels:\n    pod-security.kubernetes.io/enforce: privileged\n"
	if got := psaFindings(t, map[string]string{"a.yaml": privileged, "z.yaml": ns}, opts); len(got) != 0 {
		t.Errorf("the Namespace in the set must override the live one: %v", got)
	}
}

// writeFile writes data to a new temporary file name and returns its path.
func writeFile(t *testing.T, name, data string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestCheckedFieldsKeepVerdicts: the checks judge the slimmed template
// (checkedFields, checkedAnnotations; converted once per content) exactly
// as they judge the whole pod, at each level and version, for templates
// that set what every check reads, and for two templates that differ only
// where the checks look (the cache must not mix them up).
func TestCheckedFieldsKeepVerdicts(t *testing.T) {
	pods := []string{
		`{"metadata": {"annotations": {"container.apparmor.security.beta.kubernetes.io/web": "unconfined", "seccomp.security.alpha.kubernetes.io/pod": "unconfined", "team": "a"}},
		  "spec": {"hostNetwork": true, "hostPID": true, "hostIPC": true, "hostUsers": false,
		    "securityContext": {"runAsUser": 0, "sysctls": [{"name": "kernel.msgmax", "value": "1"}], "seLinuxOptions": {"type": "spc_t"}},
		    "volumes": [{"name": "h", "hostPath": {"path": "/"}}, {"name": "n", "nfs": {"server": "x", "path": "/"}}, {"name": "c", "configMap": {"name": "c"}}, {"name": "e", "emptyDir": null}],
		    "containers": [{"name": "web", "image": "x", "env": [{"name": "A", "value": "b"}],
		      "ports": [{"containerPort": 80, "hostPort": 8080}, {"containerPort": 81}],
		      "livenessProbe": {"httpGet": {"host": "10.0.0.1", "port": 80}}, "readinessProbe": {"tcpSocket": {"host": "10.0.0.2", "port": 80}},
		      "startupProbe": {"exec": {"command": ["true"]}},
		      "lifecycle": {"postStart": {"httpGet": {"host": "10.0.0.3", "port": 80}}, "preStop": {"tcpSocket": {"host": "10.0.0.4", "port": 80}}},
		      "securityContext": {"privileged": true, "procMount": "Unmasked", "capabilities": {"add": ["NET_ADMIN"]}, "allowPrivilegeEscalation": true, "windowsOptions": {"hostProcess": true}}}],
		    "initContainers": [{"name": "init", "image": "x", "securityContext": {"runAsNonRoot": false, "seccompProfile": {"type": "Unconfined"}, "appArmorProfile": {"type": "Unconfined"}}}],
		    "ephemeralContainers": [{"name": "debug", "image": "x", "securityContext": {"capabilities": {"drop": ["ALL"], "add": ["SYS_ADMIN"]}}}]}}`,
		`{"metadata": {}, "spec": {"os": {"name": "windows"}, "securityContext": {"runAsNonRoot": true},
		    "containers": [{"name": "w", "image": "x", "securityContext": {"allowPrivilegeEscalation": true}}]}}`,
		`{"metadata": {}, "spec": {"containers": [{"name": "web", "image": "x", "livenessProbe": {"httpGet": {"port": 80}}}]}}`,
	}
	eval, err := podSecurityEvaluator("")
	if err != nil {
		t.Fatal(err)
	}
	var cache templateCache
	tmpl := podTemplatePaths["/Pod"]
	for i, js := range pods {
		var content map[string]any
		if err := json.Unmarshal([]byte(js), &content); err != nil {
			t.Fatalf("pod %d: %v", i, err)
		}
		wholeSpec := &corev1.PodSpec{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(content["spec"].(map[string]any), wholeSpec); err != nil {
			t.Fatalf("pod %d: %v", i, err)
		}
		wholeMeta := &metav1.ObjectMeta{}
		if err := runtime.DefaultUnstructuredConverter.FromUnstructured(content["metadata"].(map[string]any), wholeMeta); err != nil {
			t.Fatalf("pod %d: %v", i, err)
		}
		o := &manifest.Object{Content: map[string]any{"apiVersion": "v1", "kind": "Pod", "metadata": content["metadata"], "spec": content["spec"]}}
		for round := range 2 { // converted, then from the cache
			meta, spec, ok := podTemplate(o, tmpl, &cache)
			if !ok {
				t.Fatalf("pod %d: not converted", i)
			}
			for _, lv := range []string{"baseline", "restricted", "baseline:v1.24", "restricted:v1.24", "restricted:v1.19"} {
				l, err := ParsePodSecurityLevel(lv)
				if err != nil {
					t.Fatal(err)
				}
				want := eval.EvaluatePod(l, wholeMeta, wholeSpec)
				got := eval.EvaluatePod(l, meta, spec)
				if !reflect.DeepEqual(got, want) {
					t.Errorf("pod %d round %d at %s: slimmed template judged\n%+v\nthe whole pod\n%+v", i, round, lv, got, want)
				}
			}
		}
	}
	if len(cache.m) != len(pods) {
		t.Errorf("%d templates cached, want %d (one per distinct content)", len(cache.m), len(pods))
	}
}
