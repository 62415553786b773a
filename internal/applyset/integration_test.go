package applyset

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

func TestMain(m *testing.M) { testkube.Main(m) }

type meta struct {
	Kind     string `json:"kind"`
	Metadata struct {
		Name        string            `json:"name"`
		Labels      map[string]string `json:"labels"`
		Annotations map[string]string `json:"annotations"`
	} `json:"metadata"`
}

func getObject(t *testing.T, c *testkube.Cluster, ns string, args ...string) meta {
	t.Helper()
	var m meta
	if err := json.Unmarshal([]byte(c.Kubectl(t, append([]string{"get", "-n", ns, "-o", "json"}, args...)...)), &m); err != nil {
		t.Fatal(err)
	}
	return m
}

func getList(t *testing.T, c *testkube.Cluster, ns string, args ...string) []meta {
	t.Helper()
	var l struct{ Items []meta }
	if err := json.Unmarshal([]byte(c.Kubectl(t, append([]string{"get", "-n", ns, "-o", "json"}, args...)...)), &l); err != nil {
		t.Fatal(err)
	}
	return l.Items
}

func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const (
	configMapYAML  = "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: %s\ndata:\n  k: v\n"
	deploymentYAML = `apiVersion: apps/v1
kind: Deployment
metadata:
  name: web
spec:
  selector: {matchLabels: {app: web}}
  template:
    metadata: {labels: {app: web}}
    spec:
      containers: [{name: web, image: nginx:1.27}]
`
	serviceYAML = `apiVersion: v1
kind: Service
metadata:
  name: web
spec:
  selector: {app: web}
  ports: [{port: 80}]
`
)

func cm(name string) string { return strings.ReplaceAll(configMapYAML, "%s", name) }

// kubectl writes a parent and members; we read them.
func TestIntegrationKubectlParent(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	t.Setenv("KUBECTL_APPLYSET", "true") // kubectl 1.32 hides --applyset without it

	dir := writeFiles(t, map[string]string{"cm.yaml": cm("settings"), "deploy.yaml": deploymentYAML, "svc.yaml": serviceYAML})
	c.Kubectl(t, "apply", "--server-side", "--prune", "--applyset=configmap/gitops-applyset", "-n", ns, "-f", dir)

	parent := getObject(t, c, ns, "configmap", "gitops-applyset")
	s, err := ReadState(parent.Metadata.Labels, parent.Metadata.Annotations)
	if err != nil {
		t.Fatalf("ReadState(%+v): %v", parent.Metadata, err)
	}
	p := Parent{Kind: "ConfigMap", Name: "gitops-applyset", Namespace: ns}
	if s.ID != p.ID() {
		t.Errorf("kubectl's id %s, ours %s", s.ID, p.ID())
	}
	if _, err := p.Read(parent.Metadata.Labels, parent.Metadata.Annotations); err != nil {
		t.Error(err)
	}
	wantGKs := []GroupKind{{Kind: "ConfigMap"}, {Group: "apps", Kind: "Deployment"}, {Kind: "Service"}}
	if !reflect.DeepEqual(s.GroupKinds, wantGKs) {
		t.Errorf("group kinds %v, want %v", s.GroupKinds, wantGKs)
	}
	if got := parent.Metadata.Annotations[AnnotationGroupKinds]; got != FormatGroupKinds(wantGKs) || got != "ConfigMap,Deployment.apps,Service" {
		t.Errorf("kubectl wrote %s=%q, we format %q", AnnotationGroupKinds, got, FormatGroupKinds(wantGKs))
	}
	if !strings.HasPrefix(s.Tooling, "kubectl/v") || IsOurs(s.Tooling) {
		t.Errorf("tooling %q", s.Tooling)
	}
	if v, ok := parent.Metadata.Annotations[AnnotationNamespaces]; !ok || v != "" || s.Namespaces != nil {
		t.Errorf("additional namespaces %q (present %v), parsed %v", v, ok, s.Namespaces)
	}
	// What kubectl wrote is exactly what we would write, but for the tooling.
	ours := State{ID: s.ID, Tooling: s.Tooling, GroupKinds: wantGKs}
	if !reflect.DeepEqual(ours.Annotations(), parent.Metadata.Annotations) || !reflect.DeepEqual(ours.Labels(), parent.Metadata.Labels) {
		t.Errorf("kubectl wrote %v %v, we would write %v %v", parent.Metadata.Labels, parent.Metadata.Annotations, ours.Labels(), ours.Annotations())
	}

	members := getList(t, c, ns, "configmaps,deployments.apps,services", "-l", MemberSelector(p.ID()))
	var names []string
	for _, m := range members {
		names = append(names, m.Kind+"/"+m.Metadata.Name)
		if m.Metadata.Labels[LabelPartOf] != p.ID() {
			t.Errorf("%s/%s: labels %v", m.Kind, m.Metadata.Name, m.Metadata.Labels)
		}
	}
	if want := []string{"ConfigMap/settings", "Deployment/web", "Service/web"}; !reflect.DeepEqual(names, want) {
		t.Errorf("members %v, want %v", names, want)
	}
}

// kubectl accepts the --applyset forms ParseParentFlag accepts, and rejects the others,
// and its parent's id is ours.
func TestIntegrationParentFlagForms(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	t.Setenv("KUBECTL_APPLYSET", "true")
	for i, form := range []string{
		"configmap/p0", "configmaps/p1", "cm/p2", "ConfigMap/p3", "CONFIGMAPS/p4", "configmaps./p5",
		"p6", "secret/p7", "Secret/p8",
		"configmaps.core/p9", "configmaps.v1/p10", "deployments.apps/p11", "/p12", "configmap/",
	} {
		dir := writeFiles(t, map[string]string{"cm.yaml": cm("member-" + string(rune('a'+i)))})
		_, kerr := c.TryKubectl("apply", "--server-side", "--prune", "--applyset="+form, "-n", ns, "-f", dir)
		p, err := ParseParentFlag(form, ns)
		if (kerr == nil) != (err == nil) {
			t.Errorf("--applyset=%s: kubectl error %v, ours %v", form, kerr, err)
			continue
		}
		if err != nil {
			continue
		}
		parent := getObject(t, c, ns, p.Resource(), p.Name)
		if parent.Kind != p.Kind || parent.Metadata.Labels[LabelID] != p.ID() {
			t.Errorf("--applyset=%s: kubectl made %s with id %s, we expect %s with %s", form, parent.Kind, parent.Metadata.Labels[LabelID], p.Kind, p.ID())
		}
	}
}

// kubectl reads a parent written with our Labels and Annotations and prunes by it.
func TestIntegrationKubectlReadsOurParent(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	t.Setenv("KUBECTL_APPLYSET", "true")

	// kubectl refuses another tool's set, so borrow its tooling value.
	tooling := getTooling(t, c, ns)
	p := Parent{Kind: "ConfigMap", Name: "ours", Namespace: ns}
	s := NewState(p, "", []GroupKind{{Kind: "ConfigMap"}}, []string{ns})
	s.Tooling = tooling
	obj := map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": p.Name, "labels": s.Labels(), "annotations": s.Annotations()},
	}
	member := map[string]any{
		"apiVersion": "v1", "kind": "ConfigMap",
		"metadata": map[string]any{"name": "old", "labels": MemberLabels(p.ID())},
	}
	for _, o := range []any{obj, member} {
		b, _ := json.Marshal(o)
		f := filepath.Join(t.TempDir(), "o.json")
		if err := os.WriteFile(f, b, 0o644); err != nil {
			t.Fatal(err)
		}
		c.Kubectl(t, "create", "-n", ns, "-f", f)
	}

	out := c.Kubectl(t, "apply", "--server-side", "--prune", "--applyset="+p.String(), "-n", ns, "-f", writeFiles(t, map[string]string{"cm.yaml": cm("new")}))
	if !strings.Contains(out, "configmap/old pruned") {
		t.Errorf("kubectl did not prune the member of our set:\n%s", out)
	}
	if _, err := c.TryKubectl("get", "-n", ns, "configmap", "old"); err == nil {
		t.Error("configmap/old still exists")
	}

	// Our set owned by kubeplan: kubectl leaves it alone.
	s.Tooling = Tooling("v0.0.1")
	b, _ := json.Marshal(map[string]any{"metadata": map[string]any{"annotations": s.Annotations()}})
	c.Kubectl(t, "patch", "-n", ns, "configmap", p.Name, "--type=merge", "-p", string(b))
	if _, err := c.TryKubectl("apply", "--server-side", "--prune", "--applyset="+p.String(), "-n", ns, "-f", writeFiles(t, map[string]string{"cm.yaml": cm("new")})); err == nil || !strings.Contains(err.Error(), `managed by tooling "kubeplan"`) {
		t.Errorf("kubectl on a kubeplan set: %v", err)
	}
}

// getTooling is what this kubectl writes in AnnotationTooling.
func getTooling(t *testing.T, c *testkube.Cluster, ns string) string {
	t.Helper()
	c.Kubectl(t, "apply", "--server-side", "--prune", "--applyset=configmap/probe", "-n", ns, "-f", writeFiles(t, map[string]string{"cm.yaml": cm("probe-member")}))
	return getObject(t, c, ns, "configmap", "probe").Metadata.Annotations[AnnotationTooling]
}
