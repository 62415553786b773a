package manifest_test

import (
	"context"
	"net/http"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/manifest/loader"
)

// TestKustomizePluginConfigRemoteRefused: a builtin generator or
// transformer configured in a file of its own (or inline, or in a
// kustomization that generators: names) that names an http file is refused
// at that entry before kustomize could fetch it; a server that never
// answers sees no connection.
func TestKustomizePluginConfigRemoteRefused(t *testing.T) {
	url, conns := silentServer(t)
	cases := map[string]struct {
		field, file, body string
		line, col         int
	}{
		"generator files": {"generators", "gen.yaml",
			"apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: g\nfiles:\n- k=" + url + "/x\n", 6, 3},
		"generator envs": {"generators", "gen.yaml",
			"apiVersion: builtin\nkind: SecretGenerator\nmetadata:\n  name: g\nenvs:\n- " + url + "/x.env\n", 6, 3},
		"patch transformer": {"transformers", "t.yaml",
			"apiVersion: builtin\nkind: PatchTransformer\nmetadata:\n  name: t\npath: " + url + "/p.yaml\ntarget:\n  kind: ConfigMap\n", 5, 7},
		"strategic merge": {"transformers", "t.yaml",
			"apiVersion: builtin\nkind: PatchStrategicMergeTransformer\nmetadata:\n  name: t\npaths:\n- " + url + "/p.yaml\n", 6, 3},
		"json6902": {"transformers", "t.yaml",
			"apiVersion: builtin\nkind: PatchJson6902Transformer\nmetadata:\n  name: t\ntarget:\n  kind: ConfigMap\n  name: one\npath: " + url + "/p.json\n", 8, 7},
		"replacements": {"transformers", "t.yaml",
			"apiVersion: builtin\nkind: ReplacementTransformer\nmetadata:\n  name: t\nreplacements:\n- path: " + url + "/r.yaml\n", 6, 9},
		"value add": {"transformers", "t.yaml",
			"apiVersion: builtin\nkind: ValueAddTransformer\nmetadata:\n  name: t\ntargetFilePath: " + url + "/t.yaml\n", 5, 17},
		"validator": {"validators", "v.yaml",
			"apiVersion: builtin\nkind: PatchTransformer\nmetadata:\n  name: t\npath: " + url + "/p.yaml\n", 5, 7},
		"second document": {"generators", "gen.yaml",
			"apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: l\nliterals:\n- a=b\n---\napiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: g\nfiles:\n- " + url + "/x\n", 13, 3},
	}
	for name, c := range cases {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			write(t, filepath.Join(dir, "kustomization.yaml"), "resources:\n- cm.yaml\n"+c.field+":\n- "+c.file+"\n")
			write(t, filepath.Join(dir, "cm.yaml"), cmYAML("one"))
			write(t, filepath.Join(dir, c.file), c.body)
			for _, allow := range []bool{false, true} {
				p := kustomizeProblem(t, dir, loader.Options{AllowRemote: allow})
				wantAt(t, p, filepath.Join(dir, c.file), c.line, c.col)
				if !strings.Contains(p.Message, url) || !strings.Contains(p.Message, "vendor") {
					t.Errorf("message %q", p.Message)
				}
			}
		})
	}
	t.Run("inline", func(t *testing.T) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "kustomization.yaml"), "resources:\n- cm.yaml\ntransformers:\n- |\n  apiVersion: builtin\n  kind: PatchTransformer\n  metadata:\n    name: t\n  path: "+url+"/p.yaml\n")
		write(t, filepath.Join(dir, "cm.yaml"), cmYAML("one"))
		p := kustomizeProblem(t, dir, loader.Options{})
		wantAt(t, p, filepath.Join(dir, "kustomization.yaml"), 9, 9)
		if !strings.Contains(p.Message, "PatchTransformer path names "+url) {
			t.Errorf("message %q", p.Message)
		}
	})
	t.Run("generator directory", func(t *testing.T) {
		dir := t.TempDir()
		write(t, filepath.Join(dir, "kustomization.yaml"), "resources:\n- cm.yaml\ngenerators:\n- gens\n")
		write(t, filepath.Join(dir, "cm.yaml"), cmYAML("one"))
		write(t, filepath.Join(dir, "gens", "kustomization.yaml"), "resources:\n- gen.yaml\n")
		write(t, filepath.Join(dir, "gens", "gen.yaml"), "apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: g\nfiles:\n- "+url+"/x\n")
		p := kustomizeProblem(t, dir, loader.Options{})
		wantAt(t, p, filepath.Join(dir, "gens", "gen.yaml"), 6, 3)
	})
	if n := conns.Load(); n != 0 {
		t.Fatalf("the test server saw %d connection(s); kustomize must never fetch", n)
	}
}

// TestKustomizeGeneratedPluginConfigRefused: a plugin config whose URL
// only exists after a patch (no file names it as a plugin field) is still
// never fetched: the request fails in kubeplan's transport, and the
// problem points at the patch that carries the URL.
func TestKustomizeGeneratedPluginConfigRefused(t *testing.T) {
	url, conns := silentServer(t)
	dir := t.TempDir()
	write(t, filepath.Join(dir, "kustomization.yaml"), "resources:\n- cm.yaml\ngenerators:\n- gens\n")
	write(t, filepath.Join(dir, "cm.yaml"), cmYAML("one"))
	write(t, filepath.Join(dir, "gens", "kustomization.yaml"),
		"resources:\n- gen.yaml\npatches:\n- path: url.yaml\n")
	write(t, filepath.Join(dir, "gens", "gen.yaml"),
		"apiVersion: builtin\nkind: ConfigMapGenerator\nmetadata:\n  name: g\nfiles:\n- local.txt\n")
	write(t, filepath.Join(dir, "gens", "url.yaml"),
		"- op: replace\n  path: /files/0\n  value: "+url+"/x\n")
	// a JSON 6902 patch needs a target
	write(t, filepath.Join(dir, "gens", "kustomization.yaml"),
		"resources:\n- gen.yaml\npatches:\n- path: url.yaml\n  target:\n    kind: ConfigMapGenerator\n")
	p := kustomizeProblem(t, dir, loader.Options{})
	wantAt(t, p, filepath.Join(dir, "gens", "url.yaml"), 3, 10)
	if !strings.Contains(p.Message, "kustomize tried to fetch "+url+"/x") {
		t.Errorf("message %q", p.Message)
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("the test server saw %d connection(s)", n)
	}
}

// TestNetGuard: Go's default transport refuses requests made from
// kustomize code and passes every other request on.
func TestNetGuard(t *testing.T) {
	url, conns := silentServer(t)
	if _, ok := http.DefaultTransport.(*http.Transport); ok {
		t.Fatal("http.DefaultTransport is Go's own: the guard is not installed")
	}
	req, err := http.NewRequest(http.MethodGet, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	// A request from this test passes (and reaches the silent server).
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	_, _ = http.DefaultClient.Do(req.WithContext(ctx))
	if conns.Load() != 1 {
		t.Fatalf("a request outside kustomize and helm saw %d connections, want 1", conns.Load())
	}
}

// An scp-style git address is refused even when a directory of that name
// exists (kustomize would clone it all the same), and a project directory
// named like one is built from disk: git never runs.
func TestKustomizeSCPNamedDirectory(t *testing.T) {
	t.Setenv("PATH", t.TempDir()) // a git kustomize ran would not be found, and say so
	dir := t.TempDir()
	write(t, filepath.Join(dir, "kustomization.yaml"), "resources:\n- git@127.0.0.1:org/repo\n")
	write(t, filepath.Join(dir, "git@127.0.0.1:org", "repo", "kustomization.yaml"), "resources: [cm.yaml]\n")
	write(t, filepath.Join(dir, "git@127.0.0.1:org", "repo", "cm.yaml"), cmYAML("one"))
	p := kustomizeProblem(t, dir, loader.Options{})
	wantAt(t, p, filepath.Join(dir, "kustomization.yaml"), 2, 3)
	if !strings.Contains(p.Message, "remote kustomize resources are not fetched") {
		t.Errorf("message %q", p.Message)
	}
	t.Chdir(dir)
	res, err := loader.Load([]string{"git@127.0.0.1:org/repo"}, loader.Options{})
	if err != nil || len(res.Problems) != 0 || len(res.Objects) != 1 {
		t.Fatalf("the directory built: %v %v %v", res, err, res.Problems)
	}
}
