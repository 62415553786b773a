package stage

import (
	"slices"
	"strings"
	"testing"
)

func names(objs []Object, ss []Stage) []string {
	var out []string
	for _, s := range ss {
		var refs []string
		for _, m := range s.Members {
			refs = append(refs, objs[m].Ref)
		}
		out = append(out, s.Name()+": "+strings.Join(refs, " "))
	}
	return out
}

// TestResolveArgoCD orders the application of Argo CD's sync-waves.md
// ("How phases work?"): PreSync hooks by wave, the waves, PostSync hooks,
// SyncFail hooks only on failure, Skip not applied; the Namespace first,
// as kubeplan always applied it.
func TestResolveArgoCD(t *testing.T) {
	objs := []Object{
		obj("namespace/shop", nil),
		obj("job.batch/migrate", map[string]string{HookAnnotation: "PreSync"}),
		obj("job.batch/backup", map[string]string{HookAnnotation: "PreSync", WaveAnnotation: "-1"}),
		obj("secret/db", map[string]string{WaveAnnotation: "-1"}),
		obj("deployment.apps/web", nil),
		obj("service/web", map[string]string{WaveAnnotation: "1"}),
		obj("ingress.networking.k8s.io/web", map[string]string{WaveAnnotation: "2"}),
		obj("job.batch/smoke", map[string]string{HookAnnotation: "PostSync", DeletePolicyAnnotation: "HookSucceeded"}),
		obj("job.batch/cleanup", map[string]string{HookAnnotation: "SyncFail"}),
		obj("configmap/scratch", map[string]string{HookAnnotation: "Skip"}),
		obj("job.batch/audit", map[string]string{HookAnnotation: "PreSync,PostSync"}),
	}
	objs[0].Kind = "Namespace"
	ord, probs := Resolve(objs)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	want := []string{
		"Namespaces and CRDs: namespace/shop",
		"PreSync hooks, wave -1: job.batch/backup",
		"PreSync hooks: job.batch/migrate job.batch/audit",
		"wave -1: secret/db",
		"wave 0: deployment.apps/web",
		"wave 1: service/web",
		"wave 2: ingress.networking.k8s.io/web",
		"PostSync hooks: job.batch/smoke job.batch/audit",
	}
	if got := names(objs, ord.Stages); !slices.Equal(got, want) {
		t.Errorf("stages\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if got := names(objs, ord.OnFail); !slices.Equal(got, []string{"SyncFail hooks: job.batch/cleanup"}) {
		t.Errorf("on fail %v", got)
	}
	if !slices.Equal(ord.Skipped, []int{9}) {
		t.Errorf("skipped %v, want configmap/scratch", ord.Skipped)
	}
}

// TestResolveKapp orders the example of kapp's docs/apply-ordering.md:
// job/migrations, then the deployment group, then job/app-health-check;
// the ConfigMap without rules goes first.
func TestResolveKapp(t *testing.T) {
	objs := []Object{
		obj("configmap/app-config", nil),
		obj("job.batch/migrations", map[string]string{GroupAnnotation: "apps.big.co/db-migrations"}),
		obj("service/app", map[string]string{GroupAnnotation: "apps.big.co/deployment"}),
		obj("ingress.networking.k8s.io/app", map[string]string{GroupAnnotation: "apps.big.co/deployment"}),
		obj("deployment.apps/app", map[string]string{GroupAnnotation: "apps.big.co/deployment", RuleAnnotation: "upsert after upserting apps.big.co/db-migrations"}),
		obj("job.batch/app-health-check", map[string]string{RuleAnnotation: "upsert after upserting apps.big.co/deployment"}),
	}
	ord, probs := Resolve(objs)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	want := []string{
		"wave 0, step 1: configmap/app-config job.batch/migrations service/app ingress.networking.k8s.io/app",
		"wave 0, step 2: deployment.apps/app",
		"wave 0, step 3: job.batch/app-health-check",
	}
	if got := names(objs, ord.Stages); !slices.Equal(got, want) {
		t.Errorf("stages\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// "before" reverses the edge; delete rules do not place stages.
	objs = []Object{
		obj("job.batch/a", map[string]string{RuleAnnotation: "upsert before upserting g/b"}),
		obj("job.batch/b", map[string]string{GroupAnnotation: "g/b", RuleAnnotation: "delete before deleting g/a"}),
		obj("job.batch/c", map[string]string{GroupAnnotation: "g/a"}),
		obj("namespace/shop", map[string]string{RuleAnnotation: "upsert before upserting " + CRDsGroup}),
		obj("customresourcedefinition.apiextensions.k8s.io/x", nil),
	}
	objs[4].Group, objs[4].Kind = "apiextensions.k8s.io", "CustomResourceDefinition"
	objs[3].Kind = "Namespace"
	ord, probs = Resolve(objs)
	if len(probs) > 0 {
		t.Fatal(probs)
	}
	want = []string{"wave 0, step 1: job.batch/a job.batch/c namespace/shop", "wave 0, step 2: job.batch/b customresourcedefinition.apiextensions.k8s.io/x"}
	if got := names(objs, ord.Stages); !slices.Equal(got, want) {
		t.Errorf("stages\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestResolveProblems(t *testing.T) {
	for _, tc := range []struct {
		name string
		objs []Object
		want []string // "rule object annotation: message part"
	}{
		{name: "cycle", objs: []Object{
			obj("job.batch/a", map[string]string{GroupAnnotation: "g/a", RuleAnnotation: "upsert after upserting g/c"}),
			obj("job.batch/b", map[string]string{GroupAnnotation: "g/b", RuleAnnotation: "upsert after upserting g/a"}),
			obj("job.batch/c", map[string]string{GroupAnnotation: "g/c", RuleAnnotation: "upsert after upserting g/b"}),
			obj("job.batch/d", map[string]string{RuleAnnotation: "upsert after upserting g/c"}),
		}, want: []string{
			"order-cycle 0 kapp.k14s.io/change-rule: change rules form a cycle: ",
			"order-cycle 1 kapp.k14s.io/change-rule: change rules form a cycle: ",
			"order-cycle 2 kapp.k14s.io/change-rule: change rules form a cycle: ",
		}},
		{name: "cycle message", objs: []Object{
			obj("job.batch/a", map[string]string{GroupAnnotation: "g/a", RuleAnnotation: "upsert before upserting g/b"}),
			obj("job.batch/b", map[string]string{GroupAnnotation: "g/b", RuleAnnotation: "upsert before upserting g/a"}),
		}, want: []string{
			"order-cycle 0 kapp.k14s.io/change-rule: change rules form a cycle: job.batch/a before job.batch/b (upsert before upserting g/b on job.batch/a), then job.batch/b before job.batch/a (upsert before upserting g/a on job.batch/b): remove or reverse one of these rules",
			"order-cycle 1 kapp.k14s.io/change-rule: change rules form a cycle",
		}},
		{name: "unknown group", objs: []Object{
			obj("deployment.apps/app", map[string]string{RuleAnnotation + ".1": "upsert after upserting apps.big.co/db-migration"}),
			obj("job.batch/migrate", map[string]string{GroupAnnotation: "apps.big.co/db-migrations"}),
		}, want: []string{
			`order-unknown-group 0 kapp.k14s.io/change-rule.1: change rule "upsert after upserting apps.big.co/db-migration" names group "apps.big.co/db-migration", which no object has: put kapp.k14s.io/change-group: apps.big.co/db-migration on the objects it means, or fix the name`,
		}},
		{name: "rule against the waves", objs: []Object{
			obj("job.batch/migrate", map[string]string{GroupAnnotation: "g/db", WaveAnnotation: "1"}),
			obj("deployment.apps/app", map[string]string{RuleAnnotation: "upsert after upserting g/db"}),
		}, want: []string{
			`order-cycle 1 kapp.k14s.io/change-rule: change rule "upsert after upserting g/db" puts deployment.apps/app after job.batch/migrate, which its phase or wave runs later (wave 1, wave 0)`,
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, probs := Resolve(tc.objs)
			var got []string
			for _, p := range probs {
				got = append(got, p.Rule+" "+string(rune('0'+p.Object))+" "+p.Annotation+": "+p.Message)
			}
			if len(got) != len(tc.want) {
				t.Fatalf("problems\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(tc.want, "\n"))
			}
			for i := range got {
				if !strings.HasPrefix(got[i], tc.want[i]) {
					t.Errorf("problem %d\n%s\nwant prefix\n%s", i, got[i], tc.want[i])
				}
			}
			if err := probs.Err(); err == nil || !strings.HasPrefix(err.Error(), "app.yaml:") {
				t.Errorf("Err() = %v", err)
			}
		})
	}
}

// TestResolveSetup: Namespaces and CRDs stay in wave 0 when nothing runs
// before it, and keep their place when annotated or ordered by a rule.
func TestResolveSetup(t *testing.T) {
	objs := []Object{obj("namespace/shop", nil), obj("deployment.apps/web", map[string]string{WaveAnnotation: "1"})}
	objs[0].Kind = "Namespace"
	ord, _ := Resolve(objs)
	if got := names(objs, ord.Stages); !slices.Equal(got, []string{"wave 0: namespace/shop", "wave 1: deployment.apps/web"}) {
		t.Errorf("stages %v", got)
	}
	objs = []Object{obj("namespace/shop", map[string]string{WaveAnnotation: "0"}), obj("namespace/tools", nil), obj("job.batch/m", map[string]string{HookAnnotation: "PreSync"})}
	objs[0].Kind, objs[1].Kind = "Namespace", "Namespace"
	ord, _ = Resolve(objs)
	if got := names(objs, ord.Stages); !slices.Equal(got, []string{"Namespaces and CRDs: namespace/tools", "PreSync hooks: job.batch/m", "wave 0: namespace/shop"}) {
		t.Errorf("stages %v", got)
	}
}
