package psadiff

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/rest"
	"k8s.io/client-go/tools/clientcmd"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/lint"
)

func TestMain(m *testing.M) { testkube.Main(m) }

var (
	podsGVR       = schema.GroupVersionResource{Version: "v1", Resource: "pods"}
	namespacesGVR = schema.GroupVersionResource{Version: "v1", Resource: "namespaces"}
)

// kubeVersion is testcluster's Kubernetes version, which "latest" means
// to its admission plugin and so to lint.
const kubeVersion = "1.37"

// levels are the six namespaces' enforce levels and versions.
var levels = []struct{ level, version string }{
	{"privileged", "v1.24"}, {"baseline", "v1.24"}, {"restricted", "v1.24"},
	{"privileged", "latest"}, {"baseline", "latest"}, {"restricted", "latest"},
}

// verdict is whether a pod is refused in a namespace, and the reasons.
type verdict struct {
	refused bool
	why     string
}

// TestIntegrationPodSecurityDiff dry-runs every variant in every labelled
// namespace and requires lint's enforce errors to be exactly the server's
// refusals.
func TestIntegrationPodSecurityDiff(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	dc := client(t, c.AdminKubeconfig())
	ctx := context.Background()

	variants := Variants(600)
	namespaces := make([]string, len(levels))
	for i, l := range levels {
		namespaces[i] = c.Namespace(t)
		patch := fmt.Sprintf(`{"metadata":{"labels":{"pod-security.kubernetes.io/enforce":%q,"pod-security.kubernetes.io/enforce-version":%q}}}`, l.level, l.version)
		if _, err := dc.Resource(namespacesGVR).Patch(ctx, namespaces[i], types.MergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	waitLabels(t, dc, namespaces)

	start := time.Now()
	server := serverVerdicts(t, dc, namespaces, variants)
	t.Logf("%d dry-runs in %s", len(variants)*len(namespaces), time.Since(start).Round(time.Millisecond))
	start = time.Now()
	offline := lintVerdicts(t, namespaces, variants)
	t.Logf("lint of %d pods in %s", len(variants)*len(namespaces), time.Since(start).Round(time.Millisecond))

	var judged, refused, admitted, invalid, falseErrors, misses int
	for i, ns := range namespaces {
		l := levels[i]
		for j, v := range variants {
			s := server[i][j]
			if s.why != "" && !s.refused {
				// Refused before admission (validation): nothing to compare.
				invalid++
				if os.Getenv("PSADIFF_DEBUG") != "" {
					t.Logf("invalid %s: %s", v, s.why)
				}
				continue
			}
			judged++
			o, ok := offline[ns][v.Name]
			switch {
			case s.refused && !ok:
				misses++
				t.Errorf("miss: %s:%s refuses %s: %s; lint reports no enforce error", l.level, l.version, v, s.why)
			case !s.refused && ok:
				falseErrors++
				t.Errorf("false error: %s:%s admits %s; lint reports %s", l.level, l.version, v, o.why)
			case s.refused:
				refused++
			default:
				admitted++
			}
		}
	}
	// The two versions must differ somewhere, or the version labels went
	// untested: pods one version of a level refuses and the other admits.
	versions := 0
	for k := range 3 {
		for j := range variants {
			a, b := server[k][j], server[k+3][j]
			if a.refused != b.refused && (a.refused || a.why == "") && (b.refused || b.why == "") {
				versions++
			}
		}
	}
	t.Logf("%d variants x %d namespaces: %d judged by admission (%d refused, %d admitted), %d refused by validation first; %d false errors, %d misses",
		len(variants), len(namespaces), judged, refused, admitted, invalid, falseErrors, misses)
	t.Logf("%d pods judged differently by v1.24 and latest of the same level", versions)
	if len(variants) < 500 || refused < 500 || admitted < 500 || invalid > judged/10 || versions == 0 {
		t.Errorf("the variants must exercise the levels and versions: %d variants, %d refused, %d admitted, %d invalid, %d judged differently by the versions",
			len(variants), refused, admitted, invalid, versions)
	}
}

// waitLabels waits until the admission plugin sees every namespace's
// labels: a privileged pod is refused in each namespace that is not
// privileged.
func waitLabels(t *testing.T, dc dynamic.Interface, namespaces []string) {
	t.Helper()
	probe := base("probe", false)
	container(probe)["securityContext"] = map[string]any{"privileged": true}
	for i, ns := range namespaces {
		if levels[i].level == "privileged" {
			continue
		}
		for deadline := time.Now().Add(20 * time.Second); ; time.Sleep(100 * time.Millisecond) {
			if v := dryRun(t, dc, ns, probe); v.refused {
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("namespace %s still admits a privileged pod after 20s", ns)
			}
		}
	}
}

// serverVerdicts dry-runs every variant in every namespace, 16 at a time:
// [namespace][variant].
func serverVerdicts(t *testing.T, dc dynamic.Interface, namespaces []string, variants []Variant) [][]verdict {
	out := make([][]verdict, len(namespaces))
	type job struct{ i, j int }
	jobs := make(chan job)
	var wg sync.WaitGroup
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for jb := range jobs {
				out[jb.i][jb.j] = dryRun(t, dc, namespaces[jb.i], variants[jb.j].Pod)
			}
		}()
	}
	for i := range namespaces {
		out[i] = make([]verdict, len(variants))
		for j := range variants {
			jobs <- job{i, j}
		}
	}
	close(jobs)
	wg.Wait()
	return out
}

// dryRun creates pod in ns with a server-side dry-run: refused when Pod
// Security refuses it; not refused with a reason when the server refuses
// it for anything else (validation).
func dryRun(t *testing.T, dc dynamic.Interface, ns string, pod map[string]any) verdict {
	u := &unstructured.Unstructured{Object: deepCopy(t, pod)}
	_, err := dc.Resource(podsGVR).Namespace(ns).Create(context.Background(), u, metav1.CreateOptions{DryRun: []string{metav1.DryRunAll}})
	if err == nil {
		return verdict{}
	}
	var se *apierrors.StatusError
	if !errors.As(err, &se) || se.ErrStatus.Code != 403 && se.ErrStatus.Code != 422 {
		t.Errorf("dry-run create of pod %s/%s: %v", ns, u.GetName(), err)
		return verdict{why: err.Error()}
	}
	msg := se.ErrStatus.Message
	return verdict{refused: se.ErrStatus.Code == 403 && strings.Contains(msg, "violates PodSecurity"), why: msg}
}

func deepCopy(t *testing.T, m map[string]any) map[string]any {
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	return out
}

// lintVerdicts lints one file per namespace, its Namespace (with the
// labels the server's has) and every variant in it, in one lint.Check,
// and returns the pods with an enforce error: namespace -> pod name ->
// the findings.
func lintVerdicts(t *testing.T, namespaces []string, variants []Variant) map[string]map[string]verdict {
	t.Helper()
	dir := t.TempDir()
	for i, ns := range namespaces {
		docs := []map[string]any{{"apiVersion": "v1", "kind": "Namespace", "metadata": map[string]any{"name": ns, "labels": map[string]any{
			"pod-security.kubernetes.io/enforce": levels[i].level, "pod-security.kubernetes.io/enforce-version": levels[i].version}}}}
		for _, v := range variants {
			p := deepCopy(t, v.Pod)
			p["metadata"].(map[string]any)["namespace"] = ns
			docs = append(docs, p)
		}
		var b strings.Builder
		for _, d := range docs {
			j, err := json.Marshal(d)
			if err != nil {
				t.Fatal(err)
			}
			b.WriteString("---\n")
			b.Write(j)
			b.WriteString("\n")
		}
		if err := os.WriteFile(filepath.Join(dir, ns+".yaml"), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	rep, _, err := lint.Check(lint.Input{Paths: []string{dir}}, lint.Options{KubeVersion: kubeVersion})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]map[string]verdict{}
	for _, f := range rep.Findings {
		if f.Rule != "pod-security" || f.Severity != lint.Error || !strings.Contains(f.Message, "sets to enforce") {
			continue
		}
		name, ok := strings.CutPrefix(f.Object, "pod/")
		if !ok {
			t.Fatalf("pod-security error on %q, not a pod: %s", f.Object, f.Message)
		}
		if out[f.Namespace] == nil {
			out[f.Namespace] = map[string]verdict{}
		}
		v := out[f.Namespace][name]
		v.refused = true
		v.why += fmt.Sprintf("[%s:%d:%d %s] ", filepath.Base(f.File), f.Line, f.Col, f.Message)
		out[f.Namespace][name] = v
	}
	return out
}

func client(t *testing.T, kubeconfig string) dynamic.Interface {
	t.Helper()
	cfg, err := clientcmd.BuildConfigFromFlags("", kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Timeout = 30 * time.Second
	cfg.QPS = -1
	// The API server's warnings (deprecated AppArmor annotations) are not
	// what this test compares.
	cfg.WarningHandler = rest.NoWarnings{}
	dc, err := dynamic.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return dc
}
