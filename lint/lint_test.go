package lint

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/manifest/loader"
)

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "kubeplan-lint-test")
	if err != nil {
		panic(err)
	}
	os.Setenv("KUBEPLAN_CACHE_DIR", dir)
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func lintSrc(t *testing.T, src string, opts Options) Report {
	t.Helper()
	objs, probs := manifest.Parse("in.yaml", []byte(src))
	rep, err := run(&loader.Result{Objects: objs, Problems: probs, Files: 1}, opts)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// want is "line:col rule substring".
func expect(t *testing.T, rep Report, want ...string) {
	t.Helper()
	var got []string
	for _, f := range rep.Findings {
		got = append(got, f.Severity.String()+" "+itoa(f.Line)+":"+itoa(f.Col)+" "+f.Rule+" "+f.Message)
	}
	if len(got) != len(want) {
		t.Fatalf("got %d findings, want %d:\n%s", len(got), len(want), strings.Join(got, "\n"))
	}
	for i, w := range want {
		parts := strings.SplitN(w, " ", 3)
		prefix := parts[0] + " " + parts[1] + " "
		rest := strings.TrimPrefix(got[i], "error ")
		rest = strings.TrimPrefix(rest, "warning ")
		rest = strings.TrimPrefix(rest, "info ")
		if !strings.HasPrefix(rest, prefix) || !strings.Contains(rest, parts[2]) {
			t.Errorf("finding %d = %q, want %q", i, got[i], w)
		}
	}
}

func itoa(i int) string { return strings.TrimSpace(strings.Repeat(" ", 0) + fmtInt(i)) }

func fmtInt(i int) string {
	if i == 0 {
		return "0"
	}
	s := ""
	for i > 0 {
		s = string(rune('0'+i%10)) + s
		i /= 10
	}
	return s
}

const validDeployment = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  namespace: store
  creationTimestamp: null
spec:
  replicas: 2
  selector:
    matchLabels: {app: web}
  strategy:
    rollingUpdate: {maxSurge: 25%, maxUnavailable: 1}
  template:
    metadata:
      labels: {app: web}
    spec:
      containers:
      - name: web
        image: nginx:1.30
        ports: [{containerPort: 80}]
        resources: {limits: {cpu: 500m, memory: 1Gi}, requests: {cpu: 0.5}}
`

func TestValid(t *testing.T) {
	expect(t, lintSrc(t, validDeployment, Options{}))
}

func TestSchemaErrors(t *testing.T) {
	src := strings.Replace(validDeployment, "replicas: 2", "replicas: three\n  replica: 2", 1)
	src = strings.Replace(src, "containerPort: 80", "containerPort: 80, protocl: TCP", 1)
	expect(t, lintSrc(t, src, Options{}),
		"8:13 schema spec.replicas must be an integer, not the string \"three\"",
		"9:3 schema unknown field \"spec.replica\" (did you mean \"replicas\"?)",
		"21:37 schema unknown field \"spec.template.spec.containers[0].ports[0].protocl\" (did you mean \"protocol\"?)",
	)
}

func TestRequired(t *testing.T) {
	src := "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec:\n  ports:\n  - name: http\n"
	expect(t, lintSrc(t, src, Options{}), "6:5 schema missing required field \"port\" in spec.ports[0]")
}

func TestMissingName(t *testing.T) {
	expect(t, lintSrc(t, "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  labels: {a: b}\n", Options{}), "3:1 schema metadata.name is missing")
}

func TestAPIVersions(t *testing.T) {
	src := "apiVersion: extensions/v1beta1\nkind: Deployment\nmetadata: {name: a}\n---\napiVersion: apps/v1beta9\nkind: Deployment\nmetadata: {name: b}\n---\napiVersion: apps/v1\nkind: Deploymnet\nmetadata: {name: c}\n"
	expect(t, lintSrc(t, src, Options{}),
		"1:13 removed-api extensions/v1beta1 Deployment was removed in Kubernetes 1.16; use apps/v1 Deployment",
		"5:13 unknown-api Kubernetes 1.37 does not serve apps/v1beta9 Deployment; Deployment is served as apps/v1",
		"10:7 unknown-api did you mean kind Deployment?",
	)
}

func TestKubeVersion(t *testing.T) {
	// flowcontrol v1beta3 is served until 1.31 and removed in 1.32
	src := "apiVersion: flowcontrol.apiserver.k8s.io/v1beta3\nkind: PriorityLevelConfiguration\nmetadata: {name: p}\nspec: {type: Exempt}\n"
	expect(t, lintSrc(t, src, Options{KubeVersion: "1.37"}), "1:13 removed-api removed in Kubernetes 1.32; use flowcontrol.apiserver.k8s.io/v1")
	if _, err := NormalizeKubeVersion("1.20"); err == nil {
		t.Error("1.20 should be refused")
	}
	for _, v := range []string{"1.33", "v1.35.2", "1.36"} {
		if _, err := NormalizeKubeVersion(v); err != nil {
			t.Errorf("%s: %v", v, err)
		}
	}
}

func TestIgnoreAnnotationAndSettings(t *testing.T) {
	src := `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
  annotations:
    kubeplan.dev/ignore: image-latest
spec:
  replicas: 0
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:latest"}]
`
	expect(t, lintSrc(t, src, Options{}), "8:13 replicas-zero spec.replicas is 0")
	rep := lintSrc(t, src, Options{Rules: map[string]RuleSetting{"replicas-zero": {Severity: Warning}}})
	if len(rep.Findings) != 1 || rep.Findings[0].Severity != Warning || rep.Count(Error) != 0 {
		t.Errorf("re-graded: %+v", rep.Findings)
	}
	rep = lintSrc(t, src, Options{Rules: map[string]RuleSetting{"replicas-zero": {Off: true}}})
	if len(rep.Findings) != 0 {
		t.Errorf("disabled rule still reported: %+v", rep.Findings)
	}
}

func TestSecretValuesNeverShown(t *testing.T) {
	src := "apiVersion: v1\nkind: Secret\nmetadata: {name: s, annotations: {kubeplan.dev/ignore: plaintext-secret}}\ntype: [hunter2]\nstringData: {password: [hunter2]}\n"
	rep := lintSrc(t, src, Options{})
	if len(rep.Findings) == 0 {
		t.Fatal("expected schema findings")
	}
	for _, f := range rep.Findings {
		if strings.Contains(f.Message, "hunter2") {
			t.Errorf("secret value in message: %s", f.Message)
		}
	}
}

func TestCRDs(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "crd.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	rep := lintSrc(t, string(data), Options{})
	expect(t, rep,
		"40:9 crd-schema spec.size must be an integer, not the string \"big\"",
		"41:3 crd-schema unknown field \"spec.colour\" (did you mean \"color\"?)",
		"48:10 crd-schema spec.color must be one of: red, blue (got \"green\")",
		"49:16 crd-validation spec.minReplicas: minReplicas must not exceed maxReplicas",
		"56:1 crd-schema missing required field \"color\" in spec",
	)
	// the same custom resources without their CRD
	crs := string(data)[strings.Index(string(data), "---\n")+4:]
	rep = lintSrc(t, crs, Options{})
	if rep.Count(Error) != 4 || rep.Findings[0].Rule != "missing-schema" {
		t.Errorf("without CRD: %+v", rep.Findings)
	}
	rep = lintSrc(t, crs, Options{IgnoreMissingSchemas: true})
	if rep.Count(Error) != 0 || rep.Count(Warning) != 4 {
		t.Errorf("--ignore-missing-schemas: %+v", rep.Findings)
	}
	// --crds: the CRD passed separately validates the same way
	crdObjs, _ := manifest.Parse("crds.yaml", data[:strings.Index(string(data), "---\n")])
	objs, _ := manifest.Parse("in.yaml", []byte(crs))
	rep, err = run(&loader.Result{Objects: objs}, Options{CRDs: crdObjs})
	if err != nil || rep.Count(Error) != 5 || rep.Findings[0].File != "in.yaml" {
		t.Errorf("with --crds: %v %+v", err, rep.Findings)
	}
}
