package project

import (
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/config"
)

// repo writes files under a new directory, makes it the working directory
// and returns it.
func repo(t *testing.T, files map[string]string) string {
	t.Helper()
	dir, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Mkdir(filepath.Join(dir, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Chdir(dir)
	return dir
}

// parse reads a kubeplan.yaml of dir.
func parse(t *testing.T, dir, content string) *config.Config {
	t.Helper()
	c, err := config.Parse(filepath.Join(dir, config.DefaultFile), []byte(content))
	if err != nil {
		t.Fatal(err)
	}
	c.File = config.DefaultFile
	return c
}

const cmYAML = "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"

// apps is a repository with a used base, two prod overlays, a dev one, a
// Component, plain CRDs and an experiment.
var apps = map[string]string{
	"platform/crds/crd.yaml":                  cmYAML,
	"apps/a/base/kustomization.yaml":          "resources: [cm.yaml]\n",
	"apps/a/base/cm.yaml":                     cmYAML,
	"apps/a/overlays/prod/kustomization.yaml": "namespace: a-prod\nresources: [../../base]\n",
	"apps/b/overlays/prod/kustomization.yaml": "namespace: b\nresources: [cm.yaml]\n",
	"apps/b/overlays/prod/cm.yaml":            cmYAML,
	"apps/b/overlays/dev/kustomization.yaml":  "resources: [cm.yaml]\n",
	"apps/b/overlays/dev/cm.yaml":             cmYAML,
	"components/c/kustomization.yaml":         "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\n",
	"experiments/x/cm.yaml":                   cmYAML,
}

// summary is one line per project with its settings.
func summary(ps []Project) []string {
	var out []string
	for _, p := range ps {
		out = append(out, strings.Join([]string{p.Name, string(p.Kind), p.Path, "ns=" + p.Namespace, "set=" + p.ApplySet,
			"cluster=" + p.Cluster(), "kv=" + p.KubeVersion, "deps=" + strings.Join(p.DependsOn, ",")}, " "))
	}
	return out
}

func TestLoadWithoutConfig(t *testing.T) {
	dir := repo(t, apps)
	ps, err := Load(".", nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"apps-a-overlays-prod kustomize apps/a/overlays/prod ns=a-prod set=configmap/kubeplan-apps-a-overlays-prod cluster= kv= deps=",
		"apps-b-overlays-dev kustomize apps/b/overlays/dev ns= set=configmap/kubeplan-apps-b-overlays-dev cluster= kv= deps=",
		"apps-b-overlays-prod kustomize apps/b/overlays/prod ns=b set=configmap/kubeplan-apps-b-overlays-prod cluster= kv= deps=",
		"experiments-x manifests experiments/x ns= set=configmap/kubeplan-experiments-x cluster= kv= deps=",
		"platform-crds manifests platform/crds ns= set=configmap/kubeplan-platform-crds cluster= kv= deps=",
	}
	if got := summary(ps); !reflect.DeepEqual(got, want) {
		t.Errorf("projects:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// ignore and defaults apply without projects:
	c := parse(t, dir, "ignore: [experiments/**, platform]\ndefaults: {namespace: \"t-{name}\", context: prod}\n")
	if ps, err = Load(".", c, Options{}); err != nil {
		t.Fatal(err)
	}
	want = []string{
		"apps-a-overlays-prod kustomize apps/a/overlays/prod ns=a-prod set=configmap/kubeplan-apps-a-overlays-prod cluster=prod kv= deps=",
		"apps-b-overlays-dev kustomize apps/b/overlays/dev ns=t-apps-b-overlays-dev set=configmap/kubeplan-apps-b-overlays-dev cluster=prod kv= deps=",
		"apps-b-overlays-prod kustomize apps/b/overlays/prod ns=b set=configmap/kubeplan-apps-b-overlays-prod cluster=prod kv= deps=",
	}
	if got := summary(ps); !reflect.DeepEqual(got, want) {
		t.Errorf("with ignore and defaults:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

const declared = `ignore: ["experiments/**"]
defaults:
  namespace: "team-{name}"
  cluster: prod
projects:
  - name: crds
    path: platform/crds
    applyset: configmap/crds
    kubeVersion: "v1.36.1"
  - path: apps/*/overlays/prod
    dependsOn: [crds]
    applyset: cm/{name}
  - path: apps/a/base
    name: a-base
    namespace: base
  - path: apps/a/overlays/prod
    name: never
`

func TestLoadDeclared(t *testing.T) {
	dir := repo(t, apps)
	c := parse(t, dir, declared)
	ps, err := Load(".", c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// a literal used base is a project when declared; the dev overlay, the
	// Component and the ignored experiment are not; the glob's entry wins
	// over the later literal one.
	want := []string{
		"a-base kustomize apps/a/base ns=base set=configmap/kubeplan-a-base cluster=prod kv= deps=",
		"apps-a-overlays-prod kustomize apps/a/overlays/prod ns=a-prod set=cm/apps-a-overlays-prod cluster=prod kv= deps=crds",
		"apps-b-overlays-prod kustomize apps/b/overlays/prod ns=b set=cm/apps-b-overlays-prod cluster=prod kv= deps=crds",
		"crds manifests platform/crds ns=team-crds set=configmap/crds cluster=prod kv=1.36 deps=",
	}
	if got := summary(ps); !reflect.DeepEqual(got, want) {
		t.Errorf("projects:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// where each project's cluster name is set: its entry, else defaults
	if ps[0].ClusterAt != c.File+":4:12" || ps[3].ClusterAt != c.File+":4:12" {
		t.Errorf("cluster set at %q and %q, want the defaults' %s:4:12", ps[0].ClusterAt, ps[3].ClusterAt, c.File)
	}
	if got, want := ps[0].Files, []string{"apps/a/base/cm.yaml", "apps/a/base/kustomization.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("a-base files %q, want %q", got, want)
	}
	if got, want := ps[3].Files, []string{"platform/crds/crd.yaml"}; !reflect.DeepEqual(got, want) {
		t.Errorf("crds files %q, want %q", got, want)
	}

	// From a subdirectory: the same names, paths relative to it.
	ps, err = Load("apps", c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, p := range ps {
		got = append(got, p.Name+" "+p.Path+" "+strings.Join(p.Files, ","))
	}
	want = []string{
		"a-base a/base a/base/cm.yaml,a/base/kustomization.yaml",
		"apps-a-overlays-prod a/overlays/prod a/base/cm.yaml,a/base/kustomization.yaml,a/overlays/prod/kustomization.yaml",
		"apps-b-overlays-prod b/overlays/prod b/overlays/prod/cm.yaml,b/overlays/prod/kustomization.yaml",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("from apps:\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestLoadErrors(t *testing.T) {
	for _, tc := range []struct{ name, config, want string }{
		{"link outside", "projects:\n  - path: link\n", "kubeplan.yaml:2:11: projects[0].path link: outside the repository"},
		{"missing", "projects:\n  - path: nope\n", "kubeplan.yaml:2:11: projects[0].path nope: not a project: no such directory"},
		{"component", "projects:\n  - path: components/c\n", "kubeplan.yaml:2:11: projects[0].path components/c: not a project: a kustomize Component"},
		{"outside", "projects:\n  - path: ../elsewhere\n", "kubeplan.yaml:2:11: projects[0].path ../elsewhere: outside the repository"},
		{"empty dir", "projects:\n  - path: apps/b\n", "kubeplan.yaml:2:11: projects[0].path apps/b: not a project: holds no kustomization"},
		{"unknown dependsOn", "projects:\n  - path: platform/crds\n    dependsOn: [web]\n", `kubeplan.yaml:3:17: platform-crds dependsOn "web": no such project (there are platform-crds)`},
		{"cycle", "projects:\n  - {name: a, path: platform/crds, dependsOn: [b]}\n  - {name: b, path: apps/b/overlays/dev, dependsOn: [c]}\n  - {name: c, path: apps/b/overlays/prod, dependsOn: [a]}\n",
			"kubeplan.yaml:4:55: dependsOn cycle: a -> b -> c -> a"},
		{"self", "projects:\n  - {name: a, path: platform/crds, dependsOn: [a]}\n", "kubeplan.yaml:2:48: dependsOn cycle: a -> a"},
		{"duplicate name", "projects:\n  - {name: x, path: platform/crds}\n  - {name: x, path: apps/b/overlays/dev}\n", `kubeplan.yaml:3:12: project name "x" is also the name of platform/crds`},
		{"duplicate name with discovered", "projects:\n  - {path: apps/*/overlays/*}\n  - {name: apps-b-overlays-dev, path: platform/crds}\n", `kubeplan.yaml:3:12: project name "apps-b-overlays-dev" is also the name of apps/b/overlays/dev`},
		{"shared set", "defaults: {applyset: configmap/one, namespace: ns}\nprojects:\n  - path: platform/crds\n  - path: apps/b/overlays/dev\n",
			`kubeplan.yaml:1:22: projects platform-crds and apps-b-overlays-dev share the ApplySet configmap/one in namespace "ns"`},
		{"shared set, short kind", "projects:\n  - {path: platform/crds, applyset: configmap/one}\n  - {path: apps/b/overlays/dev, applyset: cm/one}\n",
			`kubeplan.yaml:3:43: projects platform-crds and apps-b-overlays-dev share the ApplySet cm/one in the context's namespace of the current context's cluster`},
		{"bad applyset after {name}", "projects:\n  - {path: platform/crds, name: Big, applyset: \"configmap/{name}\"}\n", `kubeplan.yaml:2:48: project Big: applyset "configmap/Big": invalid ConfigMap name`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := repo(t, apps)
			if err := os.Symlink(t.TempDir(), filepath.Join(dir, "link")); err != nil {
				t.Fatal(err)
			}
			_, err := Load(".", parse(t, dir, tc.config), Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %s", err, tc.want)
			}
		})
	}
}

// Sets in other namespaces or clusters do not collide.
func TestLoadSameSetElsewhere(t *testing.T) {
	dir := repo(t, apps)
	c := parse(t, dir, "defaults: {applyset: configmap/one}\nprojects:\n  - {path: platform/crds, namespace: a}\n  - {path: apps/b/overlays/dev, namespace: b}\n  - {path: apps/b/overlays/prod, namespace: a, context: other}\n")
	if _, err := Load(".", c, Options{}); err != nil {
		t.Fatal(err)
	}
}

// A config applies to the directories below its own only.
func TestLoadConfigBelowRoot(t *testing.T) {
	dir := repo(t, apps)
	c, err := config.Parse(filepath.Join(dir, "apps", config.DefaultFile), []byte("defaults: {context: prod}\nignore: [b/**]\n"))
	if err != nil {
		t.Fatal(err)
	}
	ps, err := Load(".", c, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 5 || ps[0].Cluster() != "" {
		t.Errorf("from above the config: %s", summary(ps))
	}
	if ps, err = Load("apps", c, Options{}); err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || ps[0].Path != "a/overlays/prod" || ps[0].Name != "a-overlays-prod" || ps[0].Cluster() != "prod" {
		t.Errorf("from the config's directory: %s", summary(ps))
	}
}

// A kustomization under an ignored path is not read at all: the overlays
// it uses stay projects.
func TestLoadIgnoredKustomizationUsesNothing(t *testing.T) {
	dir := repo(t, map[string]string{
		"apps/a/base/kustomization.yaml":         "resources: [cm.yaml]\n",
		"apps/a/base/cm.yaml":                    cmYAML,
		"apps/a/overlays/dev/kustomization.yaml": "resources: [../../base]\n",
		"all/kustomization.yaml":                 "resources: [../apps/a/overlays/dev]\n",
	})
	names := func(ps []Project) string {
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		return strings.Join(out, " ")
	}
	ps, err := Load(".", parse(t, dir, ""), Options{})
	if err != nil || names(ps) != "all" {
		t.Fatalf("without ignore: %q %v", names(ps), err)
	}
	ps, err = Load(".", parse(t, dir, "ignore: [\"all/**\"]\n"), Options{})
	if err != nil || names(ps) != "apps-a-overlays-dev" {
		t.Fatalf("with all/ ignored: %q %v", names(ps), err)
	}
}
