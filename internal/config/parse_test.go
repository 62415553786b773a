package config

import (
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"
)

const full = `kubeVersion: 1.36
exclude: ["**/old/**"]
crds: [platform/crds]
ignoreMissingSchemas: true
rules: {image-latest: warning}
ignore: ["experiments/**"]
defaults:
  namespace: "team-{name}"
  applyset: secret/s-{name}
  cluster: prod
  kubeVersion: v1.35.2
projects:
  - name: crds
    path: platform/crds
    namespace: platform
    applyset: configmap/crds
    kubeVersion: "1.33"
    dependsOn: [web, db]
  - path: apps/*/overlays/prod
policies: [policies/, extra.yaml]
`

func TestParseFull(t *testing.T) {
	c, err := Parse("kubeplan.yaml", []byte(full))
	if err != nil {
		t.Fatal(err)
	}
	if c.KubeVersion != "1.36" || !c.IgnoreMissingSchemas || c.Rules["image-latest"] != "warning" ||
		!reflect.DeepEqual(c.Ignore, []string{"experiments/**"}) || !reflect.DeepEqual(c.CRDs, []string{"platform/crds"}) ||
		!reflect.DeepEqual(c.Policies, []string{"policies/", "extra.yaml"}) {
		t.Errorf("top level: %+v", c)
	}
	d := c.Defaults
	if d.Namespace != "team-{name}" || d.ApplySet != "secret/s-{name}" || d.Cluster != "prod" || d.KubeVersion != "1.35" {
		t.Errorf("defaults: %+v", d)
	}
	if d.Pos["cluster"] != (Pos{10, 12}) {
		t.Errorf("defaults cluster at %v", d.Pos["cluster"])
	}
	if len(c.Projects) != 2 {
		t.Fatalf("projects: %+v", c.Projects)
	}
	e := c.Projects[0]
	if e.Name != "crds" || e.Path != "platform/crds" || e.Namespace != "platform" || e.ApplySet != "configmap/crds" || e.KubeVersion != "1.33" ||
		!reflect.DeepEqual(e.DependsOn, []string{"web", "db"}) || e.Glob() {
		t.Errorf("entry 0: %+v", e)
	}
	if e.At != (Pos{13, 5}) || e.DependsPos[1] != (Pos{18, 22}) || c.At(e.Pos["path"]) != "kubeplan.yaml:14:11" {
		t.Errorf("entry 0 positions: at %v, db at %v, path at %s", e.At, e.DependsPos[1], c.At(e.Pos["path"]))
	}
	if !c.Projects[1].Glob() || c.Projects[1].Name != "" {
		t.Errorf("entry 1: %+v", c.Projects[1])
	}
}

func TestParseNoProjects(t *testing.T) {
	c, err := Parse("k.yaml", []byte("kubeVersion: \"1.37\"\n"))
	if err != nil || c.Projects != nil {
		t.Errorf("no projects key: %+v, %v", c.Projects, err)
	}
	c, err = Parse("k.yaml", []byte("projects: []\n"))
	if err != nil || c.Projects == nil || len(c.Projects) != 0 {
		t.Errorf("projects: [] = %#v, %v; want declared and empty", c.Projects, err)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"unknown top", "kubeVersion: \"1.34\"\n  # c\nexclud: [x]\n", `k.yaml:3:1: unknown key "exclud" in the top level (see docs/config.md)`},
		{"unknown in defaults", "defaults:\n  namespace: a\n  contxt: b\n", `k.yaml:3:3: unknown key "contxt" in defaults (see docs/config.md)`},
		{"unknown in flow entry", "projects:\n  - {path: a, nmae: b}\n", `k.yaml:2:15: unknown key "nmae" in projects[0] (see docs/config.md)`},
		{"unknown in second entry", "projects:\n  - path: a\n  - path: b\n    dependson: [a]\n", `k.yaml:4:5: unknown key "dependson" in projects[1]`},
		{"twice", "crds: [a]\ncrds: [b]\n", `k.yaml:2:1: key "crds" is given twice in the top level`},
		{"string wanted", "defaults:\n  namespace: [a, b]\n", `k.yaml:2:14: defaults.namespace: want a string, got a list`},
		{"list wanted", "exclude: charts/**\n", `k.yaml:1:10: exclude: want a list of strings, got "charts/**"`},
		{"list of strings", "ignore:\n  - a\n  - {b: c}\n", `k.yaml:3:5: ignore[1]: want a string, got a mapping`},
		{"bool wanted", "ignoreMissingSchemas: yes please\n", `k.yaml:1:23: ignoreMissingSchemas: want true or false, got "yes please"`},
		{"mapping wanted", "defaults: [a]\n", `k.yaml:1:11: defaults: want a mapping, got a list`},
		{"projects list", "projects: {path: a}\n", `k.yaml:1:11: projects: want a list of projects, got a mapping`},
		{"rules mapping", "rules: [a]\n", `k.yaml:1:8: rules: want a mapping`},
		{"rule value", "rules:\n  image-latest: {a: b}\n", `k.yaml:2:17: rules.image-latest: want a string, got a mapping`},
		{"kubeVersion", "projects:\n  - path: a\n    kubeVersion: \"1.20\"\n", `k.yaml:3:18: projects[0].kubeVersion "1.20" is not supported: kubeplan knows 1.33`},
		{"top kubeVersion", "kubeVersion: 2.0\n", `k.yaml:1:14: kubeVersion "2.0" is not supported`},
		{"applyset", "defaults:\n  applyset: deployment/x\n", `k.yaml:2:13: defaults.applyset: applyset "deployment/x": parent type "deployment" is not supported`},
		{"applyset name", "projects:\n  - {path: a, applyset: configmap/Not_OK}\n", `k.yaml:2:25: projects[0].applyset: applyset "configmap/Not_OK": invalid ConfigMap name`},
		{"namespace", "defaults: {namespace: \"Team_{name}\"}\n", `k.yaml:1:23: defaults.namespace "Team_{name}": a lowercase RFC 1123 label`},
		{"path required", "projects:\n  - name: a\n", `k.yaml:2:5: projects[0]: path is required`},
		{"glob name", "projects:\n  - path: a\n  - path: apps/*/prod\n    name: prod\n", `k.yaml:4:11: projects[1].name: a glob path (apps/*/prod) matches several projects, so it cannot set a name`},
		{"cluster and context", "defaults:\n  cluster: a\n  context: b\n", `k.yaml:3:12: defaults.context: cluster is already given at line 2 (context: is another name for cluster:); keep one`},
		{"cluster name", "projects:\n  - {path: a, cluster: \"prod=/etc/admin.conf\"}\n", `k.yaml:2:24: projects[0].cluster: cluster name "prod=/etc/admin.conf": '=' is not allowed`},
		{"cluster list", "defaults: {cluster: [a]}\n", `k.yaml:1:21: defaults.cluster: want a string, got a list`},
		{"syntax", "a: [\n", `k.yaml:1:1: did not find expected node content`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("k.yaml", []byte(tc.in))
			if err == nil || !strings.HasPrefix(err.Error(), tc.want) {
				t.Errorf("err = %v\nwant %s", err, tc.want)
			}
		})
	}
}

func TestDiscoverLegacyName(t *testing.T) {
	repo := tempDir(t)
	gitRepo(t, repo)
	write(t, filepath.Join(repo, LegacyFile), "kubeVersion: \"1.36\"\n")
	c, err := Discover(repo)
	if err != nil || !c.Legacy || c.KubeVersion != "1.36" || filepath.Base(c.File) != LegacyFile {
		t.Fatalf("legacy: %+v, %v", c, err)
	}
	// a nearer kubeplan.yaml wins, and is not legacy
	write(t, filepath.Join(repo, "team", DefaultFile), "kubeVersion: \"1.35\"\n")
	if c, err = Discover(filepath.Join(repo, "team")); err != nil || c.Legacy || c.KubeVersion != "1.35" {
		t.Fatalf("new name: %+v, %v", c, err)
	}
	// both in one directory: an error naming both
	write(t, filepath.Join(repo, DefaultFile), "kubeVersion: \"1.37\"\n")
	if _, err = Discover(repo); err == nil || !strings.Contains(err.Error(), "both kubeplan.yaml and .kubeplan.yaml") {
		t.Fatalf("both names: %v", err)
	}
}

// A project's interval (kubeplan serve) is a duration of at least 1s.
func TestParseInterval(t *testing.T) {
	c, err := Parse("kubeplan.yaml", []byte("projects:\n  - path: a\n    interval: 5m\n  - path: b\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Projects[0].Interval != 5*time.Minute || c.Projects[1].Interval != 0 {
		t.Errorf("intervals %s %s", c.Projects[0].Interval, c.Projects[1].Interval)
	}
	for _, bad := range []string{"soon", "10ms", "[1m]"} {
		_, err := Parse("kubeplan.yaml", []byte("projects:\n  - path: a\n    interval: "+bad+"\n"))
		if err == nil || !strings.Contains(err.Error(), "kubeplan.yaml:3:") || !strings.Contains(err.Error(), "interval") {
			t.Errorf("interval %s: err = %v", bad, err)
		}
	}
}

// cluster: and its alias context: set one logical name, with its place.
func TestParseCluster(t *testing.T) {
	c, err := Parse("k.yaml", []byte("defaults: {context: dev}\nprojects:\n  - path: a\n    cluster: prod\n  - path: b\n    cluster: ~\n"))
	if err != nil {
		t.Fatal(err)
	}
	if c.Defaults.Cluster != "dev" || c.At(c.Defaults.Pos["cluster"]) != "k.yaml:1:21" {
		t.Errorf("defaults: %q at %v", c.Defaults.Cluster, c.Defaults.Pos)
	}
	if e := c.Projects[0]; e.Cluster != "prod" || c.At(e.Pos["cluster"]) != "k.yaml:4:14" {
		t.Errorf("entry 0: %q at %v", e.Cluster, e.Pos)
	}
	if e := c.Projects[1]; e.Cluster != "" {
		t.Errorf("entry 1: null cluster = %q, want unset", e.Cluster)
	}
}

// kubeconfig: is refused where it is written, wherever it is, whatever
// it names, and the message says what to do instead; the value is never
// read, so never printed.
func TestParseKubeconfigRefused(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"defaults:\n  kubeconfig: kube/exec.kubeconfig\n", "k.yaml:2:15: defaults.kubeconfig: kubeplan.yaml cannot name a kubeconfig file"},
		{"projects:\n  - path: a\n    kubeconfig: ../../../../root/.kube/config\n", "k.yaml:3:17: projects[0].kubeconfig: kubeplan.yaml cannot name a kubeconfig file"},
		{"projects:\n  - {path: a, kubeconfig: /dev/zero}\n", "k.yaml:2:27: projects[0].kubeconfig: kubeplan.yaml cannot name a kubeconfig file"},
		{"defaults:\n  kubeconfig: {a: b}\n", "k.yaml:2:15: defaults.kubeconfig: kubeplan.yaml cannot name a kubeconfig file"},
	} {
		_, err := Parse("k.yaml", []byte(tc.in))
		if err == nil || !strings.HasPrefix(err.Error(), tc.want) || !strings.Contains(err.Error(), "--clusters NAME=KUBECONFIG") ||
			strings.Contains(err.Error(), "kube/exec") || strings.Contains(err.Error(), "/dev/zero") || strings.Contains(err.Error(), "root/.kube") {
			t.Errorf("%q: err = %v\nwant %s", tc.in, err, tc.want)
		}
	}
}

func TestCheckClusterName(t *testing.T) {
	for _, ok := range []string{"prod", "kind-dev", "arn:aws:eks:eu-west-1:123:cluster/prod", "gke_p_z_c", "user@cluster", "Prod.EU"} {
		if err := CheckClusterName(ok); err != nil {
			t.Errorf("%q: %v", ok, err)
		}
	}
	for _, bad := range []string{"", "a b", "a=b", "a#b", "a,b", "a\tb", "a|b", "`a`", "[a](http://x)", "::warning::a", "é", strings.Repeat("x", MaxClusterName+1)} {
		if err := CheckClusterName(bad); err == nil {
			t.Errorf("%q: no error", bad)
		}
	}
}
