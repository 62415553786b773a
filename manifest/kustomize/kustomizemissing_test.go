package kustomize_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/kubeplan/kubeplan/manifest/loader"
)

// TestKustomizeMissingEntryInnermost builds an overlay whose base uses a
// library two levels below it, and the library (or a Component it uses)
// names a file that does not exist: the one problem is at that entry's
// line:col in the kustomization that names it, naming the entry's path,
// not at the overlay's ../../base.
func TestKustomizeMissingEntryInnermost(t *testing.T) {
	const deployment = "apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: web\nspec:\n  template:\n    spec:\n      containers:\n        - name: web\n          image: nginx:1.27\n"
	cases := []struct {
		name string
		lib  string            // lib/kustomization.yaml
		more map[string]string // other files
		file string            // where the problem is
		line int
		col  int
		msg  string
	}{
		{name: "files", lib: "resources: [deployment.yaml]\nconfigMapGenerator:\n  - name: web-config\n    files:\n      - conf/app.properties\n",
			file: "lib/kustomization.yaml", line: 5, col: 9, msg: "conf/app.properties does not exist: fix or remove this entry"},
		{name: "files with a key", lib: "resources: [deployment.yaml]\nconfigMapGenerator:\n  - name: web-config\n    files:\n      - app.properties=app.properties\n",
			file: "lib/kustomization.yaml", line: 5, col: 9, msg: "app.properties does not exist: fix or remove this entry"},
		{name: "envs", lib: "resources: [deployment.yaml]\nsecretGenerator:\n  - name: db\n    envs:\n      - secrets/db.env\n",
			file: "lib/kustomization.yaml", line: 5, col: 9, msg: "secrets/db.env does not exist: fix or remove this entry"},
		{name: "resources file", lib: "resources:\n  - deployment.yaml\n  - service.yaml\n",
			file: "lib/kustomization.yaml", line: 3, col: 5, msg: "service.yaml does not exist: fix or remove this entry"},
		{name: "resources in a missing directory", lib: "resources:\n  - deployment.yaml\n  - net/service.yaml\n",
			file: "lib/kustomization.yaml", line: 3, col: 5, msg: "net/service.yaml does not exist: fix or remove this entry"},
		{name: "resources directory", lib: "resources:\n  - deployment.yaml\n  - ../shared/monitoring\n",
			file: "lib/kustomization.yaml", line: 3, col: 5, msg: "../shared/monitoring does not exist: fix or remove this entry"},
		{name: "patches", lib: "resources: [deployment.yaml]\npatches:\n  - path: patches/replicas.yaml\n",
			file: "lib/kustomization.yaml", line: 3, col: 11, msg: "patches/replicas.yaml does not exist: fix or remove this entry"},
		{name: "components", lib: "resources: [deployment.yaml]\ncomponents:\n  - ../components/tracing\n",
			file: "lib/kustomization.yaml", line: 3, col: 5, msg: "../components/tracing does not exist: fix or remove this entry"},
		{name: "a Component's envs", lib: "resources: [deployment.yaml]\ncomponents:\n  - ../components/monitoring\n",
			more: map[string]string{"components/monitoring/kustomization.yaml": "apiVersion: kustomize.config.k8s.io/v1alpha1\nkind: Component\nconfigMapGenerator:\n  - name: scrape\n    envs:\n      - scrape/targets.env\n"},
			file: "components/monitoring/kustomization.yaml", line: 6, col: 9, msg: "scrape/targets.env does not exist: fix or remove this entry"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := t.TempDir()
			files := map[string]string{
				"apps/web/overlays/prod/kustomization.yaml": "namespace: web-prod\nresources:\n  - ../../base\n",
				"apps/web/base/kustomization.yaml":          "resources:\n  - ../../../lib\n",
				"lib/kustomization.yaml":                    c.lib,
				"lib/deployment.yaml":                       deployment,
			}
			for p, b := range c.more {
				files[p] = b
			}
			for p, b := range files {
				p = filepath.Join(root, filepath.FromSlash(p))
				if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(p, []byte(b), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			t.Chdir(root)
			res, err := loader.Load([]string{"apps/web/overlays/prod"}, loader.Options{Root: root})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Problems) != 1 {
				t.Fatalf("want one problem, got %d: %v", len(res.Problems), res.Problems)
			}
			p := res.Problems[0]
			if p.File != c.file || p.Pos.Line != c.line || p.Pos.Col != c.col || p.Message != c.msg || p.Rule != "kustomize" {
				t.Errorf("got %s:%d:%d %s: %s\nwant %s:%d:%d kustomize: %s", p.File, p.Pos.Line, p.Pos.Col, p.Rule, p.Message, c.file, c.line, c.col, c.msg)
			}
		})
	}
}
