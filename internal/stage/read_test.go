package stage

import (
	"slices"
	"strings"
	"testing"
)

func obj(ref string, ann map[string]string) Object {
	kind, name, _ := strings.Cut(ref, "/")
	group := ""
	if k, g, ok := strings.Cut(kind, "."); ok {
		kind, group = k, g
	}
	return Object{Ref: ref, Kind: kind, Group: group, Name: name, Namespace: "shop", Annotations: ann, File: "app.yaml",
		Pos: func(key string) (string, int, int) { return "", len(key), 7 }}
}

// TestReadArgoCD reads the examples of Argo CD's documentation
// (argoproj/argo-cd docs/user-guide/sync-waves.md and resource_hooks.md)
// and the semantics of gitops-engine (sync/hook: Skip only alone, several
// phases; sync/syncwaves: a wave is strconv.Atoi of the value, else 0).
func TestReadArgoCD(t *testing.T) {
	for _, tc := range []struct {
		name     string
		ann      map[string]string
		phases   []Phase
		wave     int
		hook     Source
		skip     bool
		policies []string
		problem  string
	}{
		{name: "no annotation", phases: []Phase{Sync}},
		// sync-waves.md: `argocd.argoproj.io/sync-wave: "5"`.
		{name: "wave", ann: map[string]string{WaveAnnotation: "5"}, phases: []Phase{Sync}, wave: 5},
		{name: "negative wave", ann: map[string]string{WaveAnnotation: "-1"}, phases: []Phase{Sync}, wave: -1},
		{name: "wave not an integer", ann: map[string]string{WaveAnnotation: "1.5"}, phases: []Phase{Sync},
			problem: `argocd.argoproj.io/sync-wave "1.5" is not an integer`},
		{name: "wave with spaces", ann: map[string]string{WaveAnnotation: " 2"}, phases: []Phase{Sync}, problem: "is not an integer"},
		// resource_hooks.md: the schema-migrate Job, `argocd.argoproj.io/hook: PreSync`;
		// no delete policy means BeforeHookCreation.
		{name: "PreSync hook", ann: map[string]string{HookAnnotation: "PreSync"}, phases: []Phase{PreSync}, hook: ArgoCD,
			policies: []string{BeforeHookCreation}},
		// resource_hooks.md: "Multiple hooks can be specified as a comma separated list".
		{name: "several phases", ann: map[string]string{HookAnnotation: "PreSync, PostSync", WaveAnnotation: "2"},
			phases: []Phase{PreSync, PostSync}, wave: 2, hook: ArgoCD, policies: []string{BeforeHookCreation}},
		// resource_hooks.md: `argocd.argoproj.io/hook-delete-policy: HookSucceeded`.
		{name: "delete policy", ann: map[string]string{HookAnnotation: "PostSync", DeletePolicyAnnotation: "HookSucceeded,HookFailed"},
			phases: []Phase{PostSync}, hook: ArgoCD, policies: []string{HookSucceeded, HookFailed}},
		{name: "SyncFail", ann: map[string]string{HookAnnotation: "SyncFail"}, phases: []Phase{SyncFail}, hook: ArgoCD, policies: []string{BeforeHookCreation}},
		// sync-waves.md: Skip "indicates to Argo CD to skip the application of the manifest".
		{name: "Skip", ann: map[string]string{HookAnnotation: "Skip"}, skip: true},
		{name: "Skip beside a phase", ann: map[string]string{HookAnnotation: "Skip,Sync"}, phases: []Phase{Sync}, hook: ArgoCD, policies: []string{BeforeHookCreation}},
		{name: "PostDelete", ann: map[string]string{HookAnnotation: "PostDelete"}, phases: []Phase{PostDelete}, hook: ArgoCD, policies: []string{BeforeHookCreation}},
		{name: "unknown phase", ann: map[string]string{HookAnnotation: "presync"}, phases: []Phase{Sync},
			problem: `argocd.argoproj.io/hook "presync" is not a hook phase`},
		{name: "unknown policy", ann: map[string]string{HookAnnotation: "PreSync", DeletePolicyAnnotation: "hook-succeeded"}, phases: []Phase{PreSync}, hook: ArgoCD,
			policies: []string{BeforeHookCreation}, problem: `argocd.argoproj.io/hook-delete-policy "hook-succeeded" is not a delete policy`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, probs := Read(obj("job.batch/migrate", tc.ann))
			if !slices.Equal(p.Phases, tc.phases) || p.Wave != tc.wave || p.Hook != tc.hook || p.Skip != tc.skip || !slices.Equal(p.DeletePolicies, tc.policies) {
				t.Errorf("placement %+v, want phases %v wave %d hook %q skip %v policies %v", p, tc.phases, tc.wave, tc.hook, tc.skip, tc.policies)
			}
			checkProblem(t, probs, tc.problem)
		})
	}
}

func checkProblem(t *testing.T, probs []Problem, want string) {
	t.Helper()
	if want == "" {
		if len(probs) > 0 {
			t.Errorf("problems %v, want none", probs)
		}
		return
	}
	if len(probs) != 1 || !strings.Contains(probs[0].Message, want) {
		t.Fatalf("problems %v, want one with %q", probs, want)
	}
	if probs[0].Line == 0 || probs[0].Col != 7 || probs[0].File != "app.yaml" {
		t.Errorf("problem at %s:%d:%d, want the annotation's value", probs[0].File, probs[0].Line, probs[0].Col)
	}
}

// TestReadHelm maps Helm hooks the way Argo CD documents it
// (docs/user-guide/helm.md, "Helm Hooks": pre-install and pre-upgrade are
// PreSync, post-install and post-upgrade PostSync, the weight the wave),
// keeping Helm's events and delete policies (internal/helmhook).
func TestReadHelm(t *testing.T) {
	p, probs := Read(obj("job.batch/migrate", map[string]string{
		"helm.sh/hook": "pre-install,pre-upgrade", "helm.sh/hook-weight": "-5",
		HookAnnotation: "PostSync", WaveAnnotation: "x"}))
	if len(probs) > 0 || p.Hook != Helm || !slices.Equal(p.Phases, []Phase{PreSync}) || p.Wave != -5 ||
		!slices.Equal(p.DeletePolicies, []string{"before-hook-creation"}) || !slices.Equal(p.HelmEvents, []string{"pre-install", "pre-upgrade"}) {
		t.Errorf("placement %+v problems %v: Helm's annotations decide for a Helm hook", p, probs)
	}
	p, _ = Read(obj("pod/test", map[string]string{"helm.sh/hook": "test"}))
	if len(p.Phases) != 0 || p.Hook != Helm {
		t.Errorf("a Helm test hook: %+v, want no phase a sync runs", p)
	}
}

// TestReadKapp reads the examples of kapp's documentation
// (carvel-dev/kapp docs/apply-ordering.md) and its grammar
// (pkg/kapp/diffgraph: four words split on single spaces, group names
// qualified names, placeholders, the default groups of CRDs and Namespaces).
func TestReadKapp(t *testing.T) {
	for _, tc := range []struct {
		name    string
		ref     string
		ann     map[string]string
		groups  []string
		rules   []string
		problem string
	}{
		{name: "group and rule", ref: "deployment.apps/app", ann: map[string]string{
			GroupAnnotation: "apps.big.co/deployment",
			RuleAnnotation:  "upsert after upserting apps.big.co/db-migrations"},
			groups: []string{"apps.big.co/deployment"}, rules: []string{"upsert after upserting apps.big.co/db-migrations"}},
		{name: "suffixed keys", ref: "service/app", ann: map[string]string{
			GroupAnnotation + ".a": "apps.big.co/a", GroupAnnotation + ".b": "apps.big.co/b",
			RuleAnnotation + ".1": "delete before upserting apps.big.co/service", RuleAnnotation + ".2": "upsert before deleting apps.big.co/etcd"},
			groups: []string{"apps.big.co/a", "apps.big.co/b"}, rules: []string{"delete before upserting apps.big.co/service", "upsert before deleting apps.big.co/etcd"}},
		{name: "placeholders", ref: "deployment.apps/app", ann: map[string]string{GroupAnnotation: "apps.big.co/{kind}-{name}"},
			groups: []string{"apps.big.co/Deployment-app"}},
		{name: "crd default group", ref: "customresourcedefinition.apiextensions.k8s.io/x", groups: []string{}},
		{name: "three words", ref: "job.batch/x", ann: map[string]string{RuleAnnotation: "upsert after apps.big.co/db"},
			problem: `has 3 words, want 4`},
		{name: "double space", ref: "job.batch/x", ann: map[string]string{RuleAnnotation: "upsert  after upserting db"},
			problem: `has 5 words`},
		{name: "bad action", ref: "job.batch/x", ann: map[string]string{RuleAnnotation: "create after upserting db"},
			problem: `"create" is not upsert or delete`},
		{name: "bad order", ref: "job.batch/x", ann: map[string]string{RuleAnnotation: "upsert until upserting db"},
			problem: `"until" is not after or before`},
		{name: "bad target", ref: "job.batch/x", ann: map[string]string{RuleAnnotation: "upsert after creating db"},
			problem: `"creating" is not upserting or deleting`},
		{name: "bad group name", ref: "job.batch/x", ann: map[string]string{GroupAnnotation: "db migrations"},
			problem: `group "db migrations" is not a qualified name`},
		{name: "crd placeholder off a CRD", ref: "job.batch/x", ann: map[string]string{GroupAnnotation: "x/{crd-kind}"},
			problem: `{crd-kind} is only for CustomResourceDefinitions`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := obj(tc.ref, tc.ann)
			if o.Kind == "customresourcedefinition" {
				o.Kind = "CustomResourceDefinition"
				tc.groups = []string{CRDsGroup}
			}
			o.Kind = strings.ToUpper(o.Kind[:1]) + o.Kind[1:]
			p, probs := Read(o)
			var rules []string
			for _, r := range p.Rules {
				rules = append(rules, r.String())
			}
			if tc.problem == "" && (!slices.Equal(p.Groups, tc.groups) && len(p.Groups)+len(tc.groups) > 0 || !slices.Equal(rules, tc.rules)) {
				t.Errorf("groups %v rules %v, want %v %v", p.Groups, rules, tc.groups, tc.rules)
			}
			checkProblem(t, probs, tc.problem)
		})
	}
}
