package lint

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/internal/stage"
	"github.com/kubeplan/kubeplan/project"
)

// copyFixture copies testdata/ordering/name to a temp dir, applying edits
// (file -> old -> new), and returns the copy.
func copyFixture(t *testing.T, name string, edits map[string][2]string) string {
	t.Helper()
	src := filepath.Join("testdata", "ordering", name)
	dst := t.TempDir()
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if ed, ok := edits[e.Name()]; ok {
			if !strings.Contains(string(data), ed[0]) {
				t.Fatalf("%s has no %q", e.Name(), ed[0])
			}
			data = []byte(strings.Replace(string(data), ed[0], ed[1], 1))
		}
		if err := os.WriteFile(filepath.Join(dst, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dst
}

// orderFindings lints dir and returns its findings as
// "file:line:col rule: message", file relative to dir.
func orderFindings(t *testing.T, dir string, keep bool) []string {
	t.Helper()
	rep, _, err := Check(Input{Paths: []string{dir}, KeepObjects: keep}, Options{KubeVersion: "1.37"})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, f := range rep.Findings {
		if f.Rule == ruleDanglingRef {
			continue
		}
		rel, _ := filepath.Rel(dir, f.File)
		out = append(out, fmt.Sprintf("%s:%d:%d %s: %s", rel, f.Line, f.Col, f.Rule, f.Message))
	}
	return out
}

// TestOrderingFixturesClean: an Argo CD application (waves -1..2, a
// PreSync migration, a PostSync smoke test, a SyncFail hook, a Skip) and a
// kapp one (change groups, suffixed rules, kapp's default CRD group) lint
// clean, streamed and kept.
func TestOrderingFixturesClean(t *testing.T) {
	for _, name := range []string{"argocd", "kapp"} {
		for _, keep := range []bool{false, true} {
			if got := orderFindings(t, filepath.Join("testdata", "ordering", name), keep); len(got) > 0 {
				t.Errorf("%s (keep %v):\n%s", name, keep, strings.Join(got, "\n"))
			}
		}
	}
}

func TestOrderingFindings(t *testing.T) {
	for _, tc := range []struct {
		name, fixture string
		edits         map[string][2]string
		want          []string
	}{
		{name: "wave not an integer", fixture: "argocd",
			edits: map[string][2]string{"web.yaml": {`sync-wave: "2"`, `sync-wave: "two"`}},
			want:  []string{`web.yaml:42:35 order-annotation: argocd.argoproj.io/sync-wave "two" is not an integer: write a whole number such as "-1" or "2" (Argo CD would read it as wave 0)`}},
		{name: "unknown hook phase", fixture: "argocd",
			edits: map[string][2]string{"migrate.yaml": {`hook: PreSync`, `hook: PreSync,BeforeSync`}},
			want:  []string{`migrate.yaml:7:30 order-annotation: argocd.argoproj.io/hook "BeforeSync" is not a hook phase: use PreSync, Sync, PostSync, SyncFail, Skip, PreDelete or PostDelete (the case matters)`}},
		{name: "unknown delete policy", fixture: "argocd",
			edits: map[string][2]string{"hooks.yaml": {`hook-delete-policy: HookSucceeded`, `hook-delete-policy: hook-succeeded`}},
			want:  []string{`hooks.yaml:8:44 order-annotation: argocd.argoproj.io/hook-delete-policy "hook-succeeded" is not a delete policy: use HookSucceeded, HookFailed or BeforeHookCreation (the default)`}},
		{name: "malformed change rule", fixture: "kapp",
			edits: map[string][2]string{"app.yaml": {`"upsert after upserting apps.big.co/db-migrations"`, `"upsert after apps.big.co/db-migrations"`}},
			want: []string{
				`app.yaml:43:31 order-annotation: kapp.k14s.io/change-rule: change rule "upsert after apps.big.co/db-migrations" has 3 words, want 4: (upsert|delete) (after|before) (upserting|deleting) GROUP, separated by single spaces`}},
		{name: "unknown group", fixture: "kapp",
			edits: map[string][2]string{"app.yaml": {`upserting apps.big.co/db-migrations"`, `upserting apps.big.co/db-migration"`}},
			want: []string{
				`app.yaml:43:31 order-unknown-group: change rule "upsert after upserting apps.big.co/db-migration" names group "apps.big.co/db-migration", which no object has: put kapp.k14s.io/change-group: apps.big.co/db-migration on the objects it means, or fix the name`}},
		{name: "cycle", fixture: "kapp",
			edits: map[string][2]string{"app.yaml": {`    kapp.k14s.io/change-group: "apps.big.co/db-migrations"`,
				`    kapp.k14s.io/change-group: "apps.big.co/db-migrations"` + "\n" + `    kapp.k14s.io/change-rule: "upsert after upserting apps.big.co/deployment"`}},
			want: []string{
				`app.yaml:16:31 order-cycle: change rules form a cycle: job.batch/migrations before deployment.apps/app (upsert after upserting apps.big.co/db-migrations on deployment.apps/app), then deployment.apps/app before job.batch/migrations (upsert after upserting apps.big.co/deployment on job.batch/migrations): remove or reverse one of these rules`,
				`app.yaml:44:31 order-cycle: change rules form a cycle: job.batch/migrations before deployment.apps/app (upsert after upserting apps.big.co/db-migrations on deployment.apps/app), then deployment.apps/app before job.batch/migrations (upsert after upserting apps.big.co/deployment on job.batch/migrations): remove or reverse one of these rules`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := copyFixture(t, tc.fixture, tc.edits)
			for _, keep := range []bool{false, true} {
				got := orderFindings(t, dir, keep)
				if strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
					t.Errorf("keep %v: findings\n%s\nwant\n%s", keep, strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
				}
			}
		})
	}
}

// TestOrderingFixtureStages places the fixtures' objects in stages: the
// order issue 29's apply will run them in.
func TestOrderingFixtureStages(t *testing.T) {
	for _, tc := range []struct {
		name         string
		want, onFail []string
		skipped      []string
	}{
		{name: "argocd", want: []string{
			"Namespaces and CRDs: namespace/shop",
			"PreSync hooks: job.batch/migrate",
			"wave -1: configmap/shop-settings serviceaccount/migrate",
			"wave 0: deployment.apps/web",
			"wave 1: service/web",
			"wave 2: ingress.networking.k8s.io/web",
			"PostSync hooks: job.batch/smoke-test",
		}, onFail: []string{"SyncFail hooks: job.batch/notify-failure"}, skipped: []string{"configmap/local-only"}},
		{name: "kapp", want: []string{
			"wave 0, step 1: configmap/app-config job.batch/migrations service/app customresourcedefinition.apiextensions.k8s.io/backups.shop.example.com",
			"wave 0, step 2: deployment.apps/app backup.shop.example.com/nightly",
			"wave 0, step 3: job.batch/app-health-check",
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, objs, err := Check(Input{Paths: []string{filepath.Join("testdata", "ordering", tc.name)}, KeepObjects: true}, Options{KubeVersion: "1.37"})
			if err != nil {
				t.Fatal(err)
			}
			var sos []stage.Object
			for _, o := range objs {
				sos = append(sos, stage.FromContent(o.String(), o.File, o.Content, nil))
			}
			ord, probs := stage.Resolve(sos)
			if len(probs) > 0 {
				t.Fatal(probs)
			}
			show := func(ss []stage.Stage) []string {
				var out []string
				for _, s := range ss {
					var refs []string
					for _, m := range s.Members {
						refs = append(refs, sos[m].Ref)
					}
					out = append(out, s.Name()+": "+strings.Join(refs, " "))
				}
				return out
			}
			var skipped []string
			for _, i := range ord.Skipped {
				skipped = append(skipped, sos[i].Ref)
			}
			if got := show(ord.Stages); strings.Join(got, "\n") != strings.Join(tc.want, "\n") {
				t.Errorf("stages\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			if got := show(ord.OnFail); strings.Join(got, "\n") != strings.Join(tc.onFail, "\n") || strings.Join(skipped, " ") != strings.Join(tc.skipped, " ") {
				t.Errorf("on fail %v skipped %v, want %v %v", got, skipped, tc.onFail, tc.skipped)
			}
		})
	}
}

// Each project is its own ordered set, as plan and apply place it: a rule
// of project b naming a group only project a has is an unknown group, and
// rules of two projects never make a cycle together.
func TestOrderingPerProject(t *testing.T) {
	root := t.TempDir()
	cm := func(name, ann string) string {
		return "apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: " + name + "\n  annotations:\n" + ann + "data: {k: v}\n"
	}
	files := map[string]string{
		"a/app.yaml": cm("db", "    kapp.k14s.io/change-group: db\n    kapp.k14s.io/change-rule: upsert after upserting api\n") + "---\n" +
			cm("api", "    kapp.k14s.io/change-group: api\n"),
		"b/app.yaml": cm("api", "    kapp.k14s.io/change-group: api\n    kapp.k14s.io/change-rule: upsert after upserting db\n") + "---\n" +
			cm("web", "    kapp.k14s.io/change-rule: upsert after upserting cache\n"),
	}
	for name, content := range files {
		p := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ps := []project.Project{
		{Name: "a", Path: "a", Kind: project.Manifests, Files: []string{"a/app.yaml"}},
		{Name: "b", Path: "b", Kind: project.Manifests, Files: []string{"b/app.yaml"}},
	}
	rep, _, err := Check(Input{Projects: ps, ProjectRoot: root}, Options{KubeVersion: "1.37"})
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, f := range rep.Findings {
		if strings.HasPrefix(f.Rule, "order-") {
			got = append(got, filepath.ToSlash(strings.TrimPrefix(f.File, root+string(filepath.Separator)))+" "+f.Rule+" "+f.Object)
		}
	}
	want := "b/app.yaml order-unknown-group configmap/api\nb/app.yaml order-unknown-group configmap/web"
	if strings.Join(got, "\n") != want {
		t.Errorf("findings\n%s\nwant\n%s", strings.Join(got, "\n"), want)
	}
}
