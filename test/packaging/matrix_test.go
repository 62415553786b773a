package packaging

import (
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// workflow is the part of a workflow file the matrix test reads.
type workflow struct {
	Permissions map[string]string      `yaml:"permissions"`
	Jobs        map[string]workflowJob `yaml:"jobs"`
}

type workflowJob struct {
	Needs       stringList        `yaml:"needs"`
	If          string            `yaml:"if"`
	Outputs     map[string]string `yaml:"outputs"`
	Permissions map[string]string `yaml:"permissions"`
	Strategy    struct {
		FailFast *bool  `yaml:"fail-fast"`
		Matrix   string `yaml:"matrix"`
	} `yaml:"strategy"`
	Steps []workflowStep `yaml:"steps"`
}

type workflowStep struct {
	actionStep `yaml:",inline"` // with its if:
}

// stringList is needs:, a string or a list of them.
type stringList []string

func (l *stringList) UnmarshalYAML(n *yaml.Node) error {
	if n.Kind == yaml.ScalarNode {
		*l = []string{n.Value}
		return nil
	}
	var s []string
	err := n.Decode(&s)
	*l = s
	return err
}

func readMatrixWorkflow(t *testing.T) workflow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(repoRoot(t), "examples", "github", "matrix.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf workflow
	dec := yaml.NewDecoder(strings.NewReader(string(b)))
	if err := dec.Decode(&wf); err != nil {
		t.Fatalf("examples/github/matrix.yml: %v", err)
	}
	return wf
}

// step finds the step of job that satisfies ok, or fails t.
func (j workflowJob) step(t *testing.T, what string, ok func(workflowStep) bool) workflowStep {
	t.Helper()
	for _, s := range j.Steps {
		if ok(s) {
			return s
		}
	}
	t.Fatalf("no step %s", what)
	return workflowStep{}
}

func uses(action string) func(workflowStep) bool {
	return func(s workflowStep) bool { return s.Uses == action }
}

// The job graph of examples/github/matrix.yml: the projects job's output
// is the plan job's matrix, each matrix job uploads its plans under a name
// of its own, and the comment job, after all of them whatever their
// outcome, downloads every plan into one directory and comments with the
// only write permission of the workflow.
func TestMatrixWorkflowJobs(t *testing.T) {
	wf := readMatrixWorkflow(t)
	var names []string
	for n := range wf.Jobs {
		names = append(names, n)
	}
	slices.Sort(names)
	if !reflect.DeepEqual(names, []string{"comment", "plan", "projects"}) {
		t.Fatalf("jobs %v, want comment, plan, projects", names)
	}
	if wf.Permissions["pull-requests"] != "" || wf.Permissions["contents"] != "read" {
		t.Errorf("workflow permissions %v: want contents: read only", wf.Permissions)
	}

	projects, plan, comment := wf.Jobs["projects"], wf.Jobs["plan"], wf.Jobs["comment"]
	if got := projects.Outputs["matrix"]; got != "${{ steps.group.outputs.matrix }}" {
		t.Errorf("projects outputs matrix %q", got)
	}
	group := projects.step(t, "with id group", func(s workflowStep) bool { return s.ID == "group" })
	if !strings.Contains(group.Run, `kubeplan projects --changed-since "origin/$BASE_REF" -o json`) || group.Env["BASE_REF"] != "${{ github.base_ref }}" {
		t.Errorf("the group step does not list the projects changed since the base branch:\n%s", group.Run)
	}

	if !reflect.DeepEqual([]string(plan.Needs), []string{"projects"}) || plan.If != "needs.projects.outputs.any == 'true'" {
		t.Errorf("plan needs %v if %q", plan.Needs, plan.If)
	}
	if plan.Strategy.Matrix != "${{ fromJSON(needs.projects.outputs.matrix) }}" {
		t.Errorf("plan matrix %q, want the projects job's output", plan.Strategy.Matrix)
	}
	if plan.Strategy.FailFast == nil || *plan.Strategy.FailFast {
		t.Error("plan: fail-fast must be false, so that every cluster's plan reaches the comment")
	}
	planStep := plan.step(t, "running kubeplan plan", func(s workflowStep) bool { return strings.Contains(s.Run, "kubeplan plan ") })
	if !strings.Contains(planStep.Run, "--out plans/ --comment=false") {
		t.Errorf("the plan step does not write plans/ without commenting:\n%s", planStep.Run)
	}
	up := plan.step(t, "uploading the plans", uses("actions/upload-artifact@v4"))
	if up.If != "always()" || up.With["path"] != "plans/" || !strings.Contains(up.With["name"], "${{ matrix.cluster }}") {
		t.Errorf("upload: if %q with %v: want always(), plans/ and a name per cluster", up.If, up.With)
	}

	if !slices.Contains(comment.Needs, "plan") || !strings.Contains(comment.If, "always()") {
		t.Errorf("comment needs %v if %q: want plan, always()", comment.Needs, comment.If)
	}
	if comment.Permissions["pull-requests"] != "write" {
		t.Errorf("comment permissions %v: want pull-requests: write", comment.Permissions)
	}
	down := comment.step(t, "downloading the plans", uses("actions/download-artifact@v4"))
	prefix, _, _ := strings.Cut(up.With["name"], "${{")
	if down.With["pattern"] != prefix+"*" || down.With["merge-multiple"] != "true" || down.With["path"] != "plans" {
		t.Errorf("download with %v: want pattern %q*, merge-multiple, path plans", down.With, prefix)
	}
	c := comment.step(t, "running kubeplan comment", func(s workflowStep) bool { return strings.Contains(s.Run, "kubeplan comment") })
	if strings.TrimSpace(c.Run) != "kubeplan comment plans/" || c.Env["GITHUB_TOKEN"] != "${{ github.token }}" {
		t.Errorf("comment step: run %q env %v", c.Run, c.Env)
	}

	// Every job builds kubeplan the same way, and removes its source from
	// the work tree before anything reads it.
	var build string
	for _, n := range names {
		b := wf.Jobs[n].step(t, "Build kubeplan in job "+n, func(s workflowStep) bool { return s.Name == "Build kubeplan" })
		co := wf.Jobs[n].step(t, "Check out kubeplan in job "+n, func(s workflowStep) bool { return s.Name == "Check out kubeplan" })
		if co.With["repository"] != "kubeplan/kubeplan" || co.With["path"] != ".kubeplan" || b.WorkingDirectory != ".kubeplan" {
			t.Errorf("job %s checks out %v and builds in %q", n, co.With, b.WorkingDirectory)
		}
		if build != "" && b.Run != build {
			t.Errorf("job %s builds kubeplan differently:\n%s", n, b.Run)
		}
		build = b.Run
	}
	if !strings.Contains(build, `rm -rf "$GITHUB_WORKSPACE/.kubeplan"`) {
		t.Errorf("the build leaves kubeplan's source in the work tree:\n%s", build)
	}
}

// The group step's script, run with a stand-in kubeplan: the projects
// grouped by cluster name into the matrix, a project without one under
// "default", and no matrix job when nothing changed.
func TestMatrixWorkflowGroups(t *testing.T) {
	lookPath(t, "jq", "jq")
	wf := readMatrixWorkflow(t)
	group := wf.Jobs["projects"].step(t, "with id group", func(s workflowStep) bool { return s.ID == "group" })

	run := func(projects string) map[string]string {
		t.Helper()
		temp := t.TempDir()
		record := t.TempDir()
		standIn(t, temp, `echo "$@" > `+shellQuote(filepath.Join(record, "args"))+"\ncat <<'EOF'\n"+projects+"\nEOF")
		ctx := func(e string) (string, bool) {
			return map[string]string{"github.base_ref": "main"}[e], e == "github.base_ref"
		}
		outs := runWorkflowStep(t, group, temp, ctx)
		b, err := os.ReadFile(filepath.Join(record, "args"))
		if err != nil || strings.TrimSpace(string(b)) != "projects --changed-since origin/main -o json" {
			t.Errorf("kubeplan ran with %q (%v)", b, err)
		}
		return outs
	}

	outs := run(`{"version": 1, "projects": [
  {"name": "apps-web-overlays-prod", "path": "apps/web/overlays/prod", "kind": "kustomize", "files": [], "cluster": "prod"},
  {"name": "apps-web-overlays-dev", "path": "apps/web/overlays/dev", "kind": "kustomize", "files": [], "cluster": "dev"},
  {"name": "platform-crds", "path": "platform/crds", "kind": "manifests", "files": []},
  {"name": "apps-api-overlays-prod", "path": "apps/api/overlays/prod", "kind": "kustomize", "files": [], "cluster": "prod", "dependsOn": ["platform-crds"]},
  {"name": "apps-api-overlays-dev", "path": "apps/api/overlays/dev", "kind": "kustomize", "files": [], "cluster": "dev"}]}`)
	var m struct {
		Include []struct {
			Cluster  string   `json:"cluster"`
			Projects []string `json:"projects"`
		} `json:"include"`
	}
	if err := json.Unmarshal([]byte(outs["matrix"]), &m); err != nil {
		t.Fatalf("matrix %q: %v", outs["matrix"], err)
	}
	got := map[string][]string{}
	for _, in := range m.Include {
		got[in.Cluster] = in.Projects
	}
	want := map[string][]string{
		"default": {"platform-crds"},
		"dev":     {"apps-web-overlays-dev", "apps-api-overlays-dev"},
		"prod":    {"apps-web-overlays-prod", "apps-api-overlays-prod"},
	}
	if !reflect.DeepEqual(got, want) || len(m.Include) != 3 || outs["any"] != "true" {
		t.Errorf("matrix %s any %q\nwant %v", outs["matrix"], outs["any"], want)
	}

	outs = run(`{"version": 1, "projects": []}`)
	if outs["any"] != "false" || outs["matrix"] != `{"include":[]}` {
		t.Errorf("nothing changed: matrix %q any %q", outs["matrix"], outs["any"])
	}
}

// secretRE is the plan step's allow-list entry: a secret loaded only for
// one cluster name.
var secretRE = regexp.MustCompile(`^matrix\.cluster == '([a-z0-9-]+)' && secrets\.([A-Z0-9_]+) \|\| ''$`)

// The plan step's script, run with a stand-in kubeplan for each kind of
// matrix job: the cluster names of the workflow's allow-list get their
// own secret only (a named cluster through --clusters NAME=FILE, the
// default one as the kubeconfig), a name the pull request made up gets
// no credentials at all, and no copy of a secret is left behind.
func TestMatrixWorkflowPlanStep(t *testing.T) {
	lookPath(t, "jq", "jq")
	wf := readMatrixWorkflow(t)
	st := wf.Jobs["plan"].step(t, "running kubeplan plan", func(s workflowStep) bool { return strings.Contains(s.Run, "kubeplan plan ") })
	for _, v := range st.Env {
		if strings.Contains(v, "secrets[") || strings.Contains(v, "format(") {
			t.Fatalf("the plan step picks a secret by a computed name: %s", v)
		}
	}
	secrets := map[string]string{
		"KUBECONFIG_DEV":     "apiVersion: v1\nkind: Config\ncurrent-context: dev\n",
		"KUBECONFIG_PROD":    "apiVersion: v1\nkind: Config\ncurrent-context: prod\n",
		"KUBECONFIG_DEFAULT": "apiVersion: v1\nkind: Config\ncurrent-context: default\n",
		"KUBECONFIG_ADMIN":   "apiVersion: v1\nkind: Config\ncurrent-context: admin\n",
	}
	run := func(cluster string) (args []string, env string, files map[string]string) {
		t.Helper()
		temp, record := t.TempDir(), t.TempDir()
		// the stand-in records its arguments, its environment and every
		// kubeconfig it was given, as they are while it runs
		standIn(t, temp, `printf '%s\n' "$@" > `+shellQuote(filepath.Join(record, "args"))+`
env > `+shellQuote(filepath.Join(record, "env"))+`
[[ -n "$KUBECONFIG" ]] && cat "$KUBECONFIG" > `+shellQuote(filepath.Join(record, "KUBECONFIG"))+`
for a in "$@"; do [[ "$a" == *=* && -f "${a#*=}" ]] && cat "${a#*=}" > `+shellQuote(filepath.Join(record, "clusters"))+`; done; true`)
		ctx := func(e string) (string, bool) {
			switch e {
			case "matrix.cluster":
				return cluster, true
			case "toJSON(matrix.projects)": // toJSON pretty-prints, as GitHub's does
				return "[\n  \"apps-web-overlays-" + cluster + "\",\n  \"apps-api overlays\"\n]", true
			}
			if m := secretRE.FindStringSubmatch(e); m != nil {
				if m[1] != cluster {
					return "", true
				}
				return secrets[m[2]], true
			}
			return "", false
		}
		runWorkflowStep(t, st, temp, ctx)
		a, _ := os.ReadFile(filepath.Join(record, "args"))
		e, _ := os.ReadFile(filepath.Join(record, "env"))
		files = map[string]string{}
		for _, f := range []string{"KUBECONFIG", "clusters"} {
			if b, err := os.ReadFile(filepath.Join(record, f)); err == nil {
				files[f] = string(b)
			}
		}
		ents, _ := os.ReadDir(temp)
		for _, ent := range ents {
			if ent.Name() != "bin" {
				t.Errorf("%s: left in $RUNNER_TEMP: %s", cluster, ent.Name())
			}
		}
		return strings.Split(strings.TrimSuffix(string(a), "\n"), "\n"), string(e), files
	}
	noSecretIn := func(cluster, env string) {
		t.Helper()
		if strings.Contains(env, "current-context") || strings.Contains(env, "KUBECONFIG_") {
			t.Errorf("%s: a secret is in kubeplan's environment:\n%s", cluster, env)
		}
	}

	for _, cluster := range []string{"dev", "prod"} {
		args, env, files := run(cluster)
		want := []string{"plan", "--clusters", "", "--project", "apps-web-overlays-" + cluster, "--project", "apps-api overlays", "--out", "plans/", "--comment=false"}
		if len(args) != len(want) || !strings.HasPrefix(args[2], cluster+"=") {
			t.Fatalf("%s: kubeplan ran with %q", cluster, args)
		}
		want[2] = args[2]
		if !slices.Equal(args, want) {
			t.Errorf("%s: kubeplan ran with %q, want %q", cluster, args, want)
		}
		if files["clusters"] != secrets["KUBECONFIG_"+strings.ToUpper(cluster)] || files["KUBECONFIG"] != "" {
			t.Errorf("%s: kubeconfigs while kubeplan ran: %q", cluster, files)
		}
		noSecretIn(cluster, env)
	}

	args, env, files := run("default")
	if want := []string{"plan", "--project", "apps-web-overlays-default", "--project", "apps-api overlays", "--out", "plans/", "--comment=false"}; !slices.Equal(args, want) {
		t.Errorf("default: kubeplan ran with %q", args)
	}
	if files["KUBECONFIG"] != secrets["KUBECONFIG_DEFAULT"] || files["clusters"] != "" {
		t.Errorf("default: kubeconfigs while kubeplan ran: %q", files)
	}
	noSecretIn("default", env)

	// a cluster name the pull request made up (kubeplan.yaml's cluster:
	// admin): no secret, no kubeconfig, no --clusters; kubeplan refuses
	// its projects
	args, env, files = run("admin")
	if want := []string{"plan", "--project", "apps-web-overlays-admin", "--project", "apps-api overlays", "--out", "plans/", "--comment=false"}; !slices.Equal(args, want) {
		t.Errorf("admin: kubeplan ran with %q", args)
	}
	if len(files) != 0 {
		t.Errorf("admin: kubeconfigs while kubeplan ran: %q", files)
	}
	noSecretIn("admin", env)
}

// runWorkflowStep runs a workflow's run: step as the runner does on Linux
// (bash, the default shell), with $RUNNER_TEMP/bin first on PATH, and
// returns its outputs; a failure fails t.
func runWorkflowStep(t *testing.T, st workflowStep, runnerTemp string, ctx func(string) (string, bool)) map[string]string {
	t.Helper()
	st.Shell = "bash"
	var stdout, stderr strings.Builder
	code, outs, _ := runStep(t, 0, st.actionStep, runEnv{workspace: t.TempDir(), runnerTemp: runnerTemp,
		env: []string{"PATH=" + filepath.Join(runnerTemp, "bin") + ":" + os.Getenv("PATH")}}, ctx, &stdout, &stderr)
	if code != 0 {
		t.Fatalf("step %q exited %d: %s", st.Name, code, stderr.String())
	}
	return outs
}

// standIn writes $RUNNER_TEMP/bin/kubeplan, a bash script, where the
// workflow's build step puts kubeplan.
func standIn(t *testing.T, runnerTemp, body string) {
	t.Helper()
	bin := filepath.Join(runnerTemp, "bin")
	if err := os.MkdirAll(bin, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(bin, "kubeplan"), []byte("#!/usr/bin/env bash\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
}
