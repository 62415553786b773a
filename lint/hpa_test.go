package lint

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/kubeplan/kubeplan/manifest/loader"
)

const hpaWeb = `apiVersion: autoscaling/v2
kind: HorizontalPodAutoscaler
metadata: {name: web}
spec:
  scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}
  minReplicas: 2
  maxReplicas: 5
`

const deploymentWeb = `apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
spec:
  selector: {matchLabels: {app: web}}
  replicas: 2
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: "nginx:1.30"}]
`

// The streamed lint finds hpa-replicas across files, at the replicas field,
// as a warning, exactly as the whole-set lint does.
func TestHPAReplicasStreamed(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"a-deployment.yaml": deploymentWeb,
		"b-other.yaml":      "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\n",
		"c-hpa.yaml":        hpaWeb,
	}
	writeTree(t, dir, files)
	srcs, err := loader.Collect([]string{dir}, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := runSources(srcs, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Findings) != 1 {
		t.Fatalf("findings: %+v", got.Findings)
	}
	f := got.Findings[0]
	if f.Rule != "hpa-replicas" || f.Severity != Warning || f.File != filepath.Join(dir, "a-deployment.yaml") || f.Line != 6 || f.Col != 13 || f.Field != "spec.replicas" {
		t.Errorf("finding: %+v", f)
	}
	res, err := loader.Load([]string{dir}, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	want, err := run(res, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("RunSources differs from Run:\n got %+v\nwant %+v", got, want)
	}

	// Without the autoscaler, replicas is fine.
	if err := os.Remove(filepath.Join(dir, "c-hpa.yaml")); err != nil {
		t.Fatal(err)
	}
	srcs, err = loader.Collect([]string{dir}, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got, err = runSources(srcs, Options{}); err != nil || len(got.Findings) != 0 {
		t.Errorf("without the autoscaler: %v %+v", err, got.Findings)
	}
}

func TestHPAReplicasIgnoredAndOff(t *testing.T) {
	src := deploymentWeb + "---\n" + hpaWeb
	expect(t, lintSrc(t, src, Options{}), "6:13 hpa-replicas owned by HorizontalPodAutoscaler web")
	if rep := lintSrc(t, src, Options{Rules: map[string]RuleSetting{"hpa-replicas": {Off: true}}}); len(rep.Findings) != 0 {
		t.Errorf("disabled rule still reported: %+v", rep.Findings)
	}
	ignored := deploymentWeb[:len("apiVersion: apps/v1\nkind: Deployment\n")] +
		"metadata: {name: web, annotations: {kubeplan.dev/ignore: hpa-replicas}}\n" +
		deploymentWeb[len("apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: web}\n"):]
	if rep := lintSrc(t, ignored+"---\n"+hpaWeb, Options{}); len(rep.Findings) != 0 {
		t.Errorf("ignore annotation: %+v", rep.Findings)
	}
}
