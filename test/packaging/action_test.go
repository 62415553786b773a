package packaging

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestActionMetadata checks the inputs, outputs and defaults docs/action.md
// documents, and that the steps are set up as promised: Go from the
// action's own go.mod, the module cache keyed on its go.sum, kubeplan built
// from the action's own source, and no ${{ }} inside any script.
func TestActionMetadata(t *testing.T) {
	a := readAction(t, filepath.Join(repoRoot(t), "action.yml"))
	if a.Name == "" || a.Description == "" || a.Runs.Using != "composite" {
		t.Errorf("name %q, description %q, runs.using %q: want a named composite action", a.Name, a.Description, a.Runs.Using)
	}
	wantInputs := map[string]string{
		"command": "plan", "path": ".", "namespace": "", "applyset": "", "kubeconfig": "",
		"github-token": "${{ github.token }}", "comment": "true", "extra-args": "", "output-file": "", "version": "",
	}
	for name, def := range wantInputs {
		in, ok := a.Inputs[name]
		switch {
		case !ok:
			t.Errorf("input %s is missing", name)
		case in.Default == nil || *in.Default != def:
			t.Errorf("input %s: default %v, want %q", name, in.Default, def)
		case in.Required:
			t.Errorf("input %s is required; every input has a default", name)
		case in.Description == "":
			t.Errorf("input %s has no description", name)
		}
	}
	for name := range a.Inputs {
		if _, ok := wantInputs[name]; !ok {
			t.Errorf("input %s is not documented here (nor, probably, in docs/action.md)", name)
		}
	}
	for _, name := range []string{"has-changes", "needs-approval", "denied", "summary", "exit-code"} {
		o, ok := a.Outputs[name]
		if !ok || o.Value != "${{ steps.run.outputs."+name+" }}" || o.Description == "" {
			t.Errorf("output %s = %+v, want value ${{ steps.run.outputs.%s }} with a description", name, o, name)
		}
	}
	if len(a.Outputs) != 5 {
		t.Errorf("outputs %v, want has-changes, needs-approval, denied, summary, exit-code", a.Outputs)
	}

	steps := a.Runs.Steps
	if len(steps) != 5 {
		t.Fatalf("%d steps, want install, setup-go, cache, build, run", len(steps))
	}
	if steps[0].ID != "install" {
		t.Errorf("the first step's id is %q, want install", steps[0].ID)
	}
	const fromSource = "steps.install.outputs.mode == 'source'"
	setup := steps[1]
	if setup.Uses != "actions/setup-go@v5" || setup.If != fromSource ||
		setup.With["go-version-file"] != "${{ github.action_path }}/go.mod" || setup.With["cache"] != "false" {
		t.Errorf("setup-go step = %+v, want actions/setup-go@v5 for a source build, go-version-file from the action's directory, its own cache off", setup)
	}
	// setup-go's cache hashes go.sum with hashFiles, which ignores files
	// outside the workspace, where the action lives: it never restored
	// anything. The key is hashed by the install step instead.
	cache := steps[2]
	if cache.Uses != "actions/cache@v4" || cache.If != fromSource || cache.With["key"] != "${{ steps.install.outputs.cache-key }}" ||
		!strings.Contains(cache.With["path"], "~/.cache/go-build") || !strings.Contains(cache.With["path"], "~/go/pkg/mod") {
		t.Errorf("cache step = %+v, want actions/cache@v4 of the Go build and module caches keyed by the install step", cache)
	}
	build := steps[3]
	if !isBuildStep(build) || build.If != fromSource || build.WorkingDirectory != "${{ github.action_path }}" ||
		!strings.Contains(build.Run, `go build `) || !strings.Contains(build.Run, `-o "$RUNNER_TEMP/kubeplan" ./cmd/kubeplan`) {
		t.Errorf("build step = %+v, want go build -o \"$RUNNER_TEMP/kubeplan\" ./cmd/kubeplan in the action's directory, for a source build", build)
	}
	run := steps[4]
	if run.ID != "run" {
		t.Errorf("the last step's id is %q, want run (the outputs read steps.run.outputs)", run.ID)
	}
	for _, st := range steps {
		if strings.Contains(st.Run, "${{") {
			t.Errorf("step %q has ${{ }} in its script: inputs must reach scripts through env: only", st.Name)
		}
	}
	for name := range a.Inputs {
		ref := "${{ inputs." + name + " }}"
		found := false
		for _, st := range []actionStep{steps[0], run} {
			for _, v := range st.Env {
				found = found || v == ref
			}
		}
		if !found {
			t.Errorf("input %s does not reach the install or run step through env:", name)
		}
	}
}

// TestActionBuildsFromSource runs the build step for real: go build from
// the repository, kubeplan's version set from the action's ref.
func TestActionBuildsFromSource(t *testing.T) {
	bin := kubeplanBinary(t)
	out, err := exec.Command(bin, "version").CombinedOutput()
	if err != nil || !strings.Contains(string(out), actionRef) {
		t.Errorf("kubeplan version: %v\n%s\nwant the action's ref %s", err, out, actionRef)
	}
}

// TestActionScriptsShellcheck runs shellcheck over every script of the action.
func TestActionScriptsShellcheck(t *testing.T) {
	sc := lookPath(t, "shellcheck", "shellcheck")
	a := readAction(t, filepath.Join(repoRoot(t), "action.yml"))
	for _, st := range a.Runs.Steps {
		if st.Run == "" {
			continue
		}
		cmd := exec.Command(sc, "--shell=bash", "--severity=style", "-")
		cmd.Stdin = strings.NewReader(st.Run)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Errorf("shellcheck, step %q: %v\n%s", st.Name, err, out)
		}
	}
}

// TestActionLint: command lint on a bad manifest annotates the line, sets
// exit-code 1 and fails the step; on the fixed manifest it passes.
func TestActionLint(t *testing.T) {
	r := newActionRun(t)
	r.write("manifests/deployment.yaml", badDeployment)
	res := r.run(map[string]string{"command": "lint", "path": "manifests"})
	if res.exitCode != 1 || res.failedStep != "kubeplan lint" || res.outputs["exit-code"] != "1" {
		t.Errorf("bad manifest: step %q exit %d, exit-code output %q; want the kubeplan lint step to fail with 1\n%s%s",
			res.failedStep, res.exitCode, res.outputs["exit-code"], res.stdout, res.stderr)
	}
	want := `::error file=manifests/deployment.yaml,line=7,col=13,endLine=7,endColumn=18,title=schema::spec.replicas must be an integer`
	if !strings.Contains(res.stdout, want) {
		t.Errorf("no annotation %q in\n%s", want, res.stdout)
	}

	r.write("manifests/deployment.yaml", goodDeployment)
	res = r.run(map[string]string{"command": "lint", "path": "manifests", "namespace": "store"})
	if res.exitCode != 0 || res.outputs["exit-code"] != "0" || strings.Contains(res.stdout, "::error") {
		t.Errorf("good manifest: exit %d, exit-code output %q\n%s%s", res.exitCode, res.outputs["exit-code"], res.stdout, res.stderr)
	}
	// -n reaches lint: the namespace-mismatch rule fires for another namespace.
	res = r.run(map[string]string{"command": "lint", "path": "manifests", "namespace": "shop"})
	if res.exitCode != 1 || !strings.Contains(res.stdout, "title=namespace-mismatch") {
		t.Errorf("namespace shop: exit %d, want a namespace-mismatch error\n%s%s", res.exitCode, res.stdout, res.stderr)
	}
}

// TestActionOutputFile: lint --output sarif into output-file gives a SARIF
// file for code scanning, and the log stays free of it.
func TestActionOutputFile(t *testing.T) {
	r := newActionRun(t)
	r.write("manifests/deployment.yaml", badDeployment)
	res := r.run(map[string]string{"command": "lint", "path": "manifests", "extra-args": "--output sarif", "output-file": "kubeplan.sarif"})
	if res.exitCode != 1 || res.outputs["exit-code"] != "1" || strings.Contains(res.stdout, "sarif") {
		t.Errorf("exit %d, exit-code %q; stdout:\n%s%s", res.exitCode, res.outputs["exit-code"], res.stdout, res.stderr)
	}
	b, err := os.ReadFile(filepath.Join(r.workspace, "kubeplan.sarif"))
	if err != nil {
		t.Fatal(err)
	}
	var sarif struct {
		Version string `json:"version"`
		Runs    []struct {
			Results []struct {
				RuleID    string `json:"ruleId"`
				Locations []struct {
					PhysicalLocation struct {
						ArtifactLocation struct {
							URI string `json:"uri"`
						} `json:"artifactLocation"`
						Region struct {
							StartLine   int `json:"startLine"`
							StartColumn int `json:"startColumn"`
						} `json:"region"`
					} `json:"physicalLocation"`
				} `json:"locations"`
			} `json:"results"`
		} `json:"runs"`
	}
	if err := json.Unmarshal(b, &sarif); err != nil {
		t.Fatalf("kubeplan.sarif: %v\n%s", err, b)
	}
	if sarif.Version != "2.1.0" || len(sarif.Runs) != 1 || len(sarif.Runs[0].Results) != 1 {
		t.Fatalf("kubeplan.sarif: %s", b)
	}
	res0 := sarif.Runs[0].Results[0]
	loc := res0.Locations[0].PhysicalLocation
	if res0.RuleID != "schema" || loc.ArtifactLocation.URI != "manifests/deployment.yaml" || loc.Region.StartLine != 7 || loc.Region.StartColumn != 13 {
		t.Errorf("SARIF result %+v, want schema at manifests/deployment.yaml:7:13", res0)
	}
}

// argvStandIn is a kubeplan stand-in that records its arguments (one per
// line in $RECORD/argv, NUL-safe enough for the inputs below) and the
// environment it got, then exits with $STANDIN_EXIT (default 0).
const argvStandIn = `printf '%s\n' "$@" > "$RECORD/argv"
printf '%s\n' "${GITHUB_TOKEN-<unset>}" > "$RECORD/token"
printf '%s\n' "${KUBEPLAN_KUBECONFIG-<unset>}" > "$RECORD/kubeplan_kubeconfig"
printf '%s\n' "${KUBECONFIG-<unset>}" > "$RECORD/kubeconfig_var"
if [[ -n "${KUBECONFIG-}" ]]; then
  stat -c %a "$KUBECONFIG" > "$RECORD/kubeconfig_mode"
  cat "$KUBECONFIG" > "$RECORD/kubeconfig_content"
fi
exit "${STANDIN_EXIT:-0}"`

func readRecord(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatalf("the stand-in did not record %s: %v", name, err)
	}
	return string(b)
}

// TestActionArguments checks the argv the action builds from its inputs,
// with a stand-in for kubeplan that records it.
func TestActionArguments(t *testing.T) {
	tests := []struct {
		name   string
		inputs map[string]string
		argv   []string
	}{
		{"defaults", nil, []string{"plan", "--", "."}},
		{"lint ignores applyset and comment",
			map[string]string{"command": "lint", "path": "manifests", "namespace": "store", "applyset": "configmap/a", "comment": "false"},
			[]string{"lint", "--namespace", "store", "--", "manifests"}},
		{"plan",
			map[string]string{"command": "plan", "path": "deploy/prod", "namespace": "store", "applyset": "configmap/gitops-applyset"},
			[]string{"plan", "--namespace", "store", "--applyset", "configmap/gitops-applyset", "--", "deploy/prod"}},
		{"plan without comment",
			map[string]string{"command": "plan", "namespace": "store", "comment": "false"},
			[]string{"plan", "--namespace", "store", "--comment=false", "--", "."}},
		{"apply without comment",
			map[string]string{"command": "apply", "applyset": "secret/set", "comment": "false"},
			[]string{"apply", "--applyset", "secret/set", "--comment=false", "--", "."}},
		{"extra-args split on any whitespace",
			map[string]string{"command": "plan", "extra-args": "  --kube-version 1.35\n\t--exclude charts/**  --detailed-exitcode\n"},
			[]string{"plan", "--kube-version", "1.35", "--exclude", "charts/**", "--detailed-exitcode", "--", "."}},
		{"a path with spaces is one argument",
			map[string]string{"command": "lint", "path": "my manifests/app one"},
			[]string{"lint", "--", "my manifests/app one"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := newActionRun(t)
			rec := r.standIn(argvStandIn)
			res := r.run(tt.inputs)
			if res.exitCode != 0 || res.outputs["exit-code"] != "0" {
				t.Fatalf("exit %d, exit-code %q\n%s%s", res.exitCode, res.outputs["exit-code"], res.stdout, res.stderr)
			}
			got := strings.Split(strings.TrimSuffix(readRecord(t, rec, "argv"), "\n"), "\n")
			if !slices.Equal(got, tt.argv) {
				t.Errorf("argv %q, want %q", got, tt.argv)
			}
			if tok := readRecord(t, rec, "token"); tok != "ghs_testtoken0123456789\n" {
				t.Errorf("GITHUB_TOKEN = %q, want the github-token input (default github.token)", tok)
			}
			if kc := readRecord(t, rec, "kubeconfig_var"); kc != "<unset>\n" {
				t.Errorf("KUBECONFIG = %q without a kubeconfig input", kc)
			}
		})
	}
}

// TestActionRejectsBadInputs: an unknown command or comment value stops
// the action with exit-code 1 before kubeplan runs.
func TestActionRejectsBadInputs(t *testing.T) {
	for _, in := range []map[string]string{{"command": "destroy"}, {"command": "plan", "comment": "yes"}} {
		r := newActionRun(t)
		rec := r.standIn(argvStandIn)
		res := r.run(in)
		if res.exitCode != 1 || res.outputs["exit-code"] != "1" || !strings.Contains(res.stdout, "::error title=kubeplan action::input ") {
			t.Errorf("%v: exit %d, exit-code %q, want 1 and an error annotation\n%s%s", in, res.exitCode, res.outputs["exit-code"], res.stdout, res.stderr)
		}
		if _, err := os.Stat(filepath.Join(rec, "argv")); err == nil {
			t.Errorf("%v: kubeplan ran", in)
		}
	}
}

// TestActionInputsAreNotCode: shell metacharacters in any input are data.
// The real kubeplan gets the path as one argument and says it does not
// exist; nothing the inputs spell is executed.
func TestActionInputsAreNotCode(t *testing.T) {
	r := newActionRun(t)
	pwned := filepath.Join(t.TempDir(), "pwned")
	inputs := map[string]string{
		"command":    "lint",
		"path":       "x; touch " + pwned + "-path",
		"namespace":  "$(touch " + pwned + "-ns)",
		"extra-args": "--exclude=`touch --exclude=" + pwned + "-extra` --exclude=* --exclude=$HOME",
		"comment":    "true",
	}
	res := r.run(inputs)
	if res.exitCode != 1 || res.outputs["exit-code"] != "1" {
		t.Errorf("exit %d, exit-code %q, want 1 (no such path)\n%s%s", res.exitCode, res.outputs["exit-code"], res.stdout, res.stderr)
	}
	if !strings.Contains(res.stderr, "cannot read x; touch "+pwned+"-path") {
		t.Errorf("kubeplan did not get the path as one argument:\n%s", res.stderr)
	}
	matches, _ := filepath.Glob(pwned + "*")
	if len(matches) > 0 {
		t.Errorf("an input was executed: %v", matches)
	}

	// The argv, word for word: no globbing, no expansion.
	rec := r.standIn(argvStandIn)
	if res := r.run(inputs); res.exitCode != 0 {
		t.Fatalf("stand-in: exit %d\n%s", res.exitCode, res.stderr)
	}
	want := []string{"lint", "--namespace", "$(touch " + pwned + "-ns)", "--exclude=`touch", "--exclude=" + pwned + "-extra`",
		"--exclude=*", "--exclude=$HOME", "--", "x; touch " + pwned + "-path"}
	if got := strings.Split(strings.TrimSuffix(readRecord(t, rec, "argv"), "\n"), "\n"); !slices.Equal(got, want) {
		t.Errorf("argv %q\nwant %q", got, want)
	}
}

// TestActionKubeconfig: the kubeconfig input is written to a file of mode
// 0600 that kubeplan gets as $KUBECONFIG; the content is not left in
// kubeplan's environment, and the file is gone after the step, whether
// kubeplan succeeded or failed.
func TestActionKubeconfig(t *testing.T) {
	const kubeconfig = "apiVersion: v1\nkind: Config\nusers:\n- name: ci\n  user:\n    token: s3cr3t-$(touch /tmp/x)-`id`\n"
	for _, exit := range []string{"0", "1"} {
		r := newActionRun(t)
		rec := r.standIn(argvStandIn)
		r.env = append(r.env, "STANDIN_EXIT="+exit)
		res := r.run(map[string]string{"command": "apply", "kubeconfig": kubeconfig})
		if res.outputs["exit-code"] != exit || res.exitCode != int(exit[0]-'0') {
			t.Errorf("exit %d, exit-code %q, want %s\n%s", res.exitCode, res.outputs["exit-code"], exit, res.stderr)
		}
		if mode := readRecord(t, rec, "kubeconfig_mode"); mode != "600\n" {
			t.Errorf("kubeconfig file mode %q, want 600", mode)
		}
		if got := readRecord(t, rec, "kubeconfig_content"); got != kubeconfig {
			t.Errorf("kubeconfig file content %q, want %q", got, kubeconfig)
		}
		path := strings.TrimSpace(readRecord(t, rec, "kubeconfig_var"))
		if !strings.HasPrefix(path, r.runnerTemp+"/") {
			t.Errorf("KUBECONFIG=%s, want a file in $RUNNER_TEMP", path)
		}
		if _, err := os.Stat(path); !os.IsNotExist(err) {
			t.Errorf("%s is still there after the step (%v)", path, err)
		}
		if left := r.leftovers(); len(left) > 0 {
			t.Errorf("left in $RUNNER_TEMP: %v", left)
		}
		if v := readRecord(t, rec, "kubeplan_kubeconfig"); v != "<unset>\n" {
			t.Errorf("kubeplan's environment still holds the kubeconfig: KUBEPLAN_KUBECONFIG=%q", v)
		}
		if strings.Contains(res.stdout+res.stderr, "s3cr3t") {
			t.Errorf("the kubeconfig's token is in the log")
		}
	}
}

// TestActionOutputs: what kubeplan writes to $GITHUB_OUTPUT (both forms the
// runner reads) comes out as the action's outputs, next to exit-code.
func TestActionOutputs(t *testing.T) {
	r := newActionRun(t)
	r.standIn(`{ echo "has-changes=true"; printf 'summary<<ghadelimiter_1\nPlan: 1 to add, 0 to change, 0 to prune, 2 unchanged.\nghadelimiter_1\n'; } >> "$GITHUB_OUTPUT"
exit 2`)
	res := r.run(map[string]string{"command": "plan", "extra-args": "--detailed-exitcode"})
	want := map[string]string{"has-changes": "true", "summary": "Plan: 1 to add, 0 to change, 0 to prune, 2 unchanged.", "exit-code": "2"}
	for k, v := range want {
		if res.outputs[k] != v {
			t.Errorf("output %s = %q, want %q", k, res.outputs[k], v)
		}
	}
	if res.exitCode != 2 || res.failedStep != "kubeplan plan" {
		t.Errorf("step %q exit %d, want the plan step to fail with kubeplan's 2", res.failedStep, res.exitCode)
	}
}
