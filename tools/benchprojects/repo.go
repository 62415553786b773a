package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// spec is the shape of the generated repository.
type spec struct {
	Bases      int // each with a dev and a prod overlay
	ConfigMaps int // plain ConfigMaps per base, besides the generated one
}

// envs are the overlays of every base.
var envs = []string{"dev", "prod"}

// fullSpec is issue 13's repository: 25 bases x 2 overlays x 40 objects.
var fullSpec = spec{Bases: 25, ConfigMaps: 30}

// quickSpec is the smoke test's.
var quickSpec = spec{Bases: 4, ConfigMaps: 30}

// objectsPerProject counts what one overlay renders: the plain and the
// generated ConfigMaps and the 9 other objects of base().
func (s spec) objectsPerProject() int { return s.ConfigMaps + 1 + 9 }

func (s spec) projects() int { return s.Bases * len(envs) }

func (s spec) objects() int { return s.projects() * s.objectsPerProject() }

// overlay is one project of the generated repository.
type overlay struct {
	App, Env string
}

func (o overlay) Dir() string       { return filepath.Join("apps", o.App, "overlays", o.Env) }
func (o overlay) Namespace() string { return o.App + "-" + o.Env }

// Project is the name discovery gives the overlay (its path, "/" as "-").
func (o overlay) Project() string { return strings.ReplaceAll(filepath.ToSlash(o.Dir()), "/", "-") }

func (s spec) overlays() []overlay {
	var out []overlay
	for i := 0; i < s.Bases; i++ {
		for _, e := range envs {
			out = append(out, overlay{App: appName(i), Env: e})
		}
	}
	return out
}

func appName(i int) string { return fmt.Sprintf("app%02d", i) }

// repoConfig is the repository's kubeplan.yaml: every project discovered, each
// in its kustomization's namespace, with an ApplySet of its own.
const repoConfig = `# Projects are discovered: one per overlay, in its kustomization's namespace.
# oneset/ is the benchmark's scenario (e), the same overlays as one set.
ignore: ["oneset/**"]
defaults:
  applyset: "configmap/kubeplan-{name}"
`

// writeRepo writes the repository into dir and commits it.
func writeRepo(dir string, s spec) error {
	files := map[string]string{"kubeplan.yaml": repoConfig}
	for i := 0; i < s.Bases; i++ {
		app := appName(i)
		for name, body := range base(app, s) {
			files[filepath.Join("apps", app, "base", name)] = body
		}
	}
	for _, o := range s.overlays() {
		files[filepath.Join(o.Dir(), "kustomization.yaml")] = overlayKustomization(o, "1.2.3")
		if o.Env == "prod" {
			files[filepath.Join(o.Dir(), "resources.yaml")] = prodResources(o.App)
		}
	}
	for name, body := range oneSet(s) {
		files[name] = body
	}
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			return err
		}
	}
	if err := git(dir, "init", "-q", "-b", "main"); err != nil {
		return err
	}
	if err := git(dir, "add", "."); err != nil {
		return err
	}
	return git(dir, "commit", "-qm", fmt.Sprintf("%d apps, dev and prod", s.Bases))
}

// changeOne commits a new image tag for the first overlay: the change
// --changed-since HEAD~1 finds.
func changeOne(dir string, s spec) (overlay, error) {
	o := s.overlays()[0]
	p := filepath.Join(dir, o.Dir(), "kustomization.yaml")
	if err := os.WriteFile(p, []byte(overlayKustomization(o, "1.2.4")), 0o644); err != nil {
		return o, err
	}
	return o, git(dir, "commit", "-qam", o.App+" "+o.Env+": 1.2.4")
}

func git(dir string, args ...string) error {
	cmd := exec.Command("git", append([]string{"-c", "user.name=bench", "-c", "user.email=bench@example.com", "-c", "commit.gpgsign=false"}, args...)...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("git %s: %w: %s", strings.Join(args, " "), err, out)
	}
	return nil
}

func overlayKustomization(o overlay, tag string) string {
	replicas := map[string]int{"dev": 1, "prod": 2}[o.Env]
	k := fmt.Sprintf(`apiVersion: kustomize.config.k8s.io/v1beta1
kind: Kustomization
namespace: %s
resources:
- ../../base
labels:
- pairs: {env: %s}
images:
- name: registry.example.com/shop/%s
  newTag: "%s"
configMapGenerator:
- name: %s-env
  behavior: merge
  literals:
  - ENVIRONMENT=%s
patches:
- target: {kind: Deployment, name: %s-worker}
  patch: |-
    - op: replace
      path: /spec/replicas
      value: %d
`, o.Namespace(), o.Env, o.App, tag, o.App, o.Env, o.App, replicas)
	if o.Env == "prod" {
		k += "- path: resources.yaml\n"
	}
	return k
}

func prodResources(app string) string {
	return fmt.Sprintf(`apiVersion: apps/v1
kind: Deployment
metadata:
  name: %[1]s-web
spec:
  template:
    spec:
      containers:
      - name: web
        resources:
          requests: {cpu: 200m, memory: 256Mi}
          limits: {memory: 512Mi}
`, app)
}
