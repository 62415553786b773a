package main

import (
	"context"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
)

func TestStoriesCheckEveryStep(t *testing.T) {
	for _, st := range stories {
		for i, sp := range st.steps {
			if sp.check.fn == nil || sp.check.what == "" || sp.title == "" {
				t.Errorf("%s, step %d (%q): every step needs a title and a check that says what it asserts", st.title, i+1, sp.title)
			}
			for _, a := range sp.do {
				if a.kind != cmdAction {
					continue
				}
				if _, err := splitWords(a.line); err != nil {
					t.Errorf("%s: %v", st.title, err)
				}
				if strings.HasPrefix(a.line, "kubeplan ") && len(a.want) == 0 {
					t.Errorf("%s: %q expects no output: say what kubeplan must print", st.title, a.line)
				}
			}
		}
	}
}

func TestSplitWords(t *testing.T) {
	for line, want := range map[string][]string{
		`git commit -q -m "web: 3 replicas"`: {"git", "commit", "-q", "-m", "web: 3 replicas"},
		`a  'b "c"' "d 'e'" f\ g`:            {"a", `b "c"`, "d 'e'", "f g"},
		`x ""`:                               {"x", ""},
		`kubeplan apply --ref=main	--path manifests`: {"kubeplan", "apply", "--ref=main", "--path", "manifests"},
	} {
		got, err := splitWords(line)
		if err != nil || !slices.Equal(got, want) {
			t.Errorf("splitWords(%q) = %q, %v; want %q", line, got, err, want)
		}
	}
	for _, bad := range []string{`a "b`, `a 'b`, `a \`} {
		if _, err := splitWords(bad); err == nil {
			t.Errorf("splitWords(%q): no error", bad)
		}
	}
}

func TestParseBlocksAndCommands(t *testing.T) {
	readme := "intro\n\n<!-- tested: demo, .ci/run -->\n```sh\nmake demo   # the story\nmake test\n```\n\n```text\n$ kubeplan lint manifests/\n```\n" +
		"<!-- tested: readme -->\n\nsome prose\n```sh\nkubeplan apply -n store \\\n  --source 'a # b' --ref main\necho \"#x\" # done\n```\n"
	blocks := parseBlocks(readme)
	if len(blocks) != 3 {
		t.Fatalf("%d blocks, want 3: %+v", len(blocks), blocks)
	}
	if b := blocks[0]; b.info != "sh" || b.marker != "demo, .ci/run" || b.line != 5 || !slices.Equal(commands(b.lines), []string{"make demo", "make test"}) {
		t.Errorf("block 1: %+v, commands %q", b, commands(b.lines))
	}
	if b := blocks[1]; b.info != "text" || b.marker != "" {
		t.Errorf("block 2: %+v", b)
	}
	// A marker counts only right before its block, prose between breaks it.
	if b := blocks[2]; b.marker != "" || !slices.Equal(commands(b.lines), []string{"kubeplan apply -n store --source 'a # b' --ref main", `echo "#x"`}) {
		t.Errorf("block 3: marker %q, commands %q", b.marker, commands(b.lines))
	}
}

func TestMatchExcerpt(t *testing.T) {
	out := strings.Split(`== 6. Apply
$ kubeplan apply -n store --applyset configmap/gitops-applyset --source ../shop.git --ref main --path manifests
waiting for 1 object(s) to be healthy: deployment.apps/web (0/2 available: Replicas: 0/2)
configmap/settings created
deployment.apps/web created
Apply: 3 created, 0 configured, 0 pruned, 0 unchanged.
in sync with 21ebd61 seed: web, its service and settings
Applied:   2026-11-30T02:07:37Z
ApplySet:  configmap/gitops-applyset in namespace store (kubeplan/fab42a9-dirty)`, "\n")
	for _, tc := range []struct {
		excerpt string
		bad     int
	}{
		{"$ kubeplan apply -n store --applyset configmap/gitops-applyset --source ../shop.git --ref main --path manifests\n...\nconfigmap/settings created\ndeployment.apps/web created", -1},
		{"in sync with 3f2c1ab seed: web, its service and settings\nApplied:   2027-01-01T00:00:00Z", -1},
		{"ApplySet:  configmap/gitops-applyset in namespace store (kubeplan/…)", -1},
		{"waiting for … (…)\n...\nApply: 3 created, 0 configured, 0 pruned, 0 unchanged.", -1},
		// Lines left out without "...": not contiguous.
		{"$ kubeplan apply -n store --applyset configmap/gitops-applyset --source ../shop.git --ref main --path manifests\nconfigmap/settings created", 0},
		// Out of order.
		{"deployment.apps/web created\n...\nconfigmap/settings created", 2},
		// Not there at all; a wrong count is no wildcard.
		{"configmap/settings created\nApply: 4 created, 0 configured, 0 pruned, 0 unchanged.", 1},
		{"in sync with 21ebd61 seed: something else", 0},
	} {
		if got, _ := matchExcerpt(strings.Split(tc.excerpt, "\n"), out); got != tc.bad {
			t.Errorf("matchExcerpt(%q) = %d, want %d", tc.excerpt, got, tc.bad)
		}
	}
}

func TestCoveredByTests(t *testing.T) {
	root := moduleRoot(t)
	example := "kubeplan apply -n store --applyset configmap/gitops-applyset --source https://git.example.com/shop.git --ref main --path manifests --interval 30s"
	if why := testsRun(t, root, example, []string{"TestIntegrationApplyFromGit"}); why != "TestIntegrationApplyFromGit never pass --interval" {
		t.Errorf("TestIntegrationApplyFromGit runs no --interval, but: %q", why)
	}
	if why := testsRun(t, root, example, []string{"TestIntegrationApplyFromGit", "TestIntegrationIntervalLoop"}); why != "" {
		t.Errorf("covered by the two, but: %s", why)
	}
	if why := testsRun(t, root, "kubeplan status --source x", []string{"TestIntegrationIntervalLoop"}); why != "TestIntegrationIntervalLoop never pass status" {
		t.Errorf("the subcommand matters, but: %q", why)
	}
	if why := testsRun(t, root, "kubeplan apply", []string{"TestNoSuchTest"}); !strings.Contains(why, "no func TestNoSuchTest") {
		t.Errorf("no such test, but: %q", why)
	}
	// A txtar script of TestScripts: the words of its kubeplan lines, and
	// the variables its env lines set for a command's leading VAR=value.
	script := []string{"TestScripts/hostile_credentials"}
	if why := testsRun(t, root, "KUBEPLAN_CLUSTERS=dev,prod=/run/x kubeplan plan --all --clusters prod=/run/y", script); why != "" {
		t.Errorf("the script runs plan --all --clusters with KUBEPLAN_CLUSTERS set, but: %s", why)
	}
	if why := testsRun(t, root, "kubeplan plan --all --interval 1m", script); why != "TestScripts/hostile_credentials never pass --interval" {
		t.Errorf("the script passes no --interval, but: %q", why)
	}
	if why := testsRun(t, root, "KUBEPLAN_NOPE=1 kubeplan plan --all", script); why != "TestScripts/hostile_credentials never pass KUBEPLAN_NOPE" {
		t.Errorf("the script sets no KUBEPLAN_NOPE, but: %q", why)
	}
	if why := testsRun(t, root, "kubeplan serve", script); why != "TestScripts/hostile_credentials never pass serve" {
		t.Errorf("the script runs no serve, but: %q", why)
	}
	for _, bad := range []string{"TestScripts/no_such_script", "TestScripts/../script/hostile_credentials"} {
		if why := testsRun(t, root, "kubeplan plan", []string{bad}); !strings.Contains(why, "there is no script") {
			t.Errorf("%s: no such script, but: %q", bad, why)
		}
	}
}

// The checks are not vacuous: on a cluster where the story did not happen
// (here: a fresh namespace), the checks of its steps fail.
func TestChecksFailOnWrongState(t *testing.T) {
	needCluster(t)
	c := testkube.Start(t)
	admin, err := kube.NewFromKubeconfig(c.AdminKubeconfig(), "")
	if err != nil {
		t.Fatal(err)
	}
	s := &session{admin: admin, work: t.TempDir(), mem: map[string]string{}}
	s.dir = s.work
	ctx := context.Background()
	c.Kubectl(t, "create", "namespace", "store")
	c.Kubectl(t, "-n", "store", "create", "configmap", "settings", "--from-literal=currency=USD")
	c.Kubectl(t, "-n", "store", "create", "deployment", "web", "--image=nginx:1.30", "--replicas=2")
	// A repository whose HEAD the ApplySet parent records, but as failed.
	for _, args := range [][]string{{"init", "-q"}, {"-c", "user.name=a", "-c", "user.email=a@example.com", "commit", "-q", "--allow-empty", "-m", "x"}} {
		if _, err := s.git(args...); err != nil {
			t.Fatal(err)
		}
	}
	head, err := s.git("rev-parse", "HEAD")
	if err != nil {
		t.Fatal(err)
	}
	c.Kubectl(t, "-n", "store", "create", "configmap", "gitops-applyset")
	c.Kubectl(t, "-n", "store", "annotate", "configmap", "gitops-applyset", "kubeplan.dev/revision="+head, "kubeplan.dev/result=failed")
	if err := nodeReady(ctx, s); err != nil {
		t.Fatalf("node: %v", err)
	}
	for name, fn := range map[string]func(context.Context, *session) error{
		"3 replicas of web":         deployment("store", "web", 3),
		"service web":               present(services, "store", "web"),
		"settings gone":             absent(configmaps, "store", "settings"),
		"currency EUR":              configData("store", "settings", "currency", "EUR"),
		"made-by-hand exists":       unlabelled(configmaps, "store", "made-by-hand"),
		"nothing in store":          nothingInStore,
		"the ApplySet records HEAD": recorded("store", "gitops-applyset"), // as failed
		"spec.replicas 6":           specReplicas("store", "web", 6),
	} {
		if err := fn(ctx, s); err == nil {
			t.Errorf("the check %q holds on a cluster where it must not", name)
		}
	}
	// And they hold where they should.
	for name, fn := range map[string]func(context.Context, *session) error{
		"2 replicas of web": func(ctx context.Context, s *session) error {
			return eventually(ctx, time.Minute, func() error { return deployment("store", "web", 2)(ctx, s) })
		},
		"settings has USD":  configData("store", "settings", "currency", "USD"),
		"no service web":    absent(services, "store", "web"),
		"spec.replicas 2":   specReplicas("store", "web", 2),
		"settings is plain": unlabelled(configmaps, "store", "settings"),
	} {
		if err := fn(ctx, s); err != nil {
			t.Errorf("the check %q fails: %v", name, err)
		}
	}
	c.Kubectl(t, "-n", "store", "annotate", "--overwrite", "configmap", "gitops-applyset", "kubeplan.dev/result=ok")
	if err := recorded("store", "gitops-applyset")(ctx, s); err != nil {
		t.Errorf("the ApplySet records HEAD as ok, but: %v", err)
	}
	// A write between remember and unchanged is seen.
	if err := remember("settings", configmaps, "store", "settings")(ctx, s); err != nil {
		t.Fatal(err)
	}
	if err := unchanged("settings", configmaps, "store", "settings")(ctx, s); err != nil {
		t.Errorf("nothing wrote settings, but: %v", err)
	}
	c.Kubectl(t, "-n", "store", "label", "configmap", "settings", "touched=yes")
	if err := unchanged("settings", configmaps, "store", "settings")(ctx, s); err == nil {
		t.Error("a label written by kubectl went unseen")
	}
}
