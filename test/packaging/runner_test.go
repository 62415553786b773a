package packaging

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	yaml "go.yaml.in/yaml/v3"
)

// This file runs a composite action's steps the way the GitHub Actions
// runner does, close enough to test action.yml without GitHub:
//
//   - inputs get their defaults, and ${{ }} expressions are evaluated in
//     the places the runner evaluates them (env, with, working-directory,
//     output values); only the contexts action.yml may use are known, any
//     other expression fails the test;
//   - a run step is written to a file and run as
//     `bash --noprofile --norc -eo pipefail FILE`, with a fresh
//     $GITHUB_OUTPUT and $GITHUB_STEP_SUMMARY per step, $RUNNER_TEMP,
//     $GITHUB_ACTION_PATH and $GITHUB_WORKSPACE, in the workspace unless the
//     step names a working-directory;
//   - the step's outputs are read back from $GITHUB_OUTPUT (name=value and
//     the name<<DELIMITER heredoc form) and the action's outputs from them;
//   - uses: steps (actions/setup-go) are not run: Go is already here; the
//     tests check how they are configured instead;
//   - the first failing step ends the run, as in a composite action.

// actionMeta is the part of action.yml the runner reads.
type actionMeta struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description"`
	Inputs      map[string]struct {
		Description string  `yaml:"description"`
		Required    bool    `yaml:"required"`
		Default     *string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Description string `yaml:"description"`
		Value       string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string       `yaml:"using"`
		Steps []actionStep `yaml:"steps"`
	} `yaml:"runs"`
}

type actionStep struct {
	Name             string            `yaml:"name"`
	ID               string            `yaml:"id"`
	Uses             string            `yaml:"uses"`
	With             map[string]string `yaml:"with"`
	Shell            string            `yaml:"shell"`
	Run              string            `yaml:"run"`
	WorkingDirectory string            `yaml:"working-directory"`
	If               string            `yaml:"if"`
	Env              map[string]string `yaml:"env"`
}

func readAction(t *testing.T, path string) *actionMeta {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var a actionMeta
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return &a
}

// runEnv is what one run of the action sees.
type runEnv struct {
	actionPath string            // the action's directory (github.action_path)
	workspace  string            // GITHUB_WORKSPACE and the default working directory
	runnerTemp string            // RUNNER_TEMP
	token      string            // github.token
	inputs     map[string]string // the with: of the workflow step
	env        []string          // extra environment, e.g. KUBEPLAN_CACHE_DIR
	skip       func(actionStep) bool
}

// runResult is what the run left.
type runResult struct {
	exitCode    int               // of the last step that ran
	failedStep  string            // name of the failing step, "" when all passed
	stdout      string            // all steps' standard output
	stderr      string            // all steps' standard error
	outputs     map[string]string // the action's outputs
	stepOutputs map[string]map[string]string
	summary     string // all steps' $GITHUB_STEP_SUMMARY
}

var exprRE = regexp.MustCompile(`\$\{\{\s*(.*?)\s*\}\}`)

// eval replaces every ${{ expr }} in s. ctx maps the expressions action.yml
// may use (inputs.X, github.action_path, github.token, steps.ID.outputs.X);
// an unknown one fails t, so action.yml cannot depend on something this
// emulation does not know.
func eval(t *testing.T, s string, ctx func(string) (string, bool)) string {
	t.Helper()
	return exprRE.ReplaceAllStringFunc(s, func(m string) string {
		e := exprRE.FindStringSubmatch(m)[1]
		v, ok := ctx(e)
		if !ok {
			t.Fatalf("action.yml uses the expression %q, which the test runner does not know", m)
		}
		return v
	})
}

var ifRE = regexp.MustCompile(`^\s*([a-z0-9_.-]+)\s*(==|!=)\s*'([^']*)'\s*$`)

// evalIf evaluates a step's if: condition; action.yml may only compare a
// context value with a string literal (steps.ID.outputs.X == 'text').
func evalIf(t *testing.T, cond string, ctx func(string) (string, bool)) bool {
	t.Helper()
	if cond == "" {
		return true
	}
	m := ifRE.FindStringSubmatch(cond)
	if m == nil {
		t.Fatalf("action.yml has the condition %q, which the test runner does not know", cond)
	}
	v, ok := ctx(m[1])
	if !ok {
		t.Fatalf("the condition %q uses an unknown expression", cond)
	}
	return (v == m[3]) == (m[2] == "==")
}

// runAction runs the composite action in a.
func runAction(t *testing.T, a *actionMeta, re runEnv) runResult {
	t.Helper()
	github := map[string]string{"github.action_path": re.actionPath, "github.token": re.token, "github.workspace": re.workspace}
	inputs := map[string]string{}
	for name, in := range a.Inputs {
		if in.Default != nil {
			inputs[name] = eval(t, *in.Default, func(e string) (string, bool) { v, ok := github[e]; return v, ok })
		} else {
			inputs[name] = ""
		}
	}
	for name, v := range re.inputs {
		if _, ok := a.Inputs[name]; !ok {
			t.Fatalf("the test gives input %q, which action.yml does not declare", name)
		}
		inputs[name] = v
	}
	res := runResult{stepOutputs: map[string]map[string]string{}, outputs: map[string]string{}}
	ctx := func(e string) (string, bool) {
		if v, ok := github[e]; ok {
			return v, true
		}
		if name, ok := strings.CutPrefix(e, "inputs."); ok {
			v, ok := inputs[name]
			return v, ok
		}
		if rest, ok := strings.CutPrefix(e, "steps."); ok {
			id, out, ok := strings.Cut(rest, ".outputs.")
			if !ok {
				return "", false
			}
			return res.stepOutputs[id][out], true // an unset output is ""
		}
		return "", false
	}
	var stdout, stderr, summary strings.Builder
	for i, st := range a.Runs.Steps {
		if st.Uses != "" || (re.skip != nil && re.skip(st)) || !evalIf(t, st.If, ctx) {
			continue
		}
		name := eval(t, st.Name, ctx)
		code, outs, sum := runStep(t, i, st, re, ctx, &stdout, &stderr)
		summary.WriteString(sum)
		if st.ID != "" {
			res.stepOutputs[st.ID] = outs
		}
		res.exitCode = code
		if code != 0 {
			res.failedStep = name
			break
		}
	}
	for name, o := range a.Outputs {
		res.outputs[name] = eval(t, o.Value, ctx)
	}
	res.stdout, res.stderr, res.summary = stdout.String(), stderr.String(), summary.String()
	return res
}

// runStep runs one run: step and returns its exit code, outputs and summary.
func runStep(t *testing.T, i int, st actionStep, re runEnv, ctx func(string) (string, bool), stdout, stderr *strings.Builder) (int, map[string]string, string) {
	t.Helper()
	if st.Shell != "bash" {
		t.Fatalf("step %d (%s): shell %q; the test runner runs bash only", i, st.Name, st.Shell)
	}
	files := t.TempDir()
	script := filepath.Join(files, "step.sh")
	if err := os.WriteFile(script, []byte(st.Run), 0o700); err != nil {
		t.Fatal(err)
	}
	outFile := filepath.Join(files, "output")
	sumFile := filepath.Join(files, "summary")
	for _, f := range []string{outFile, sumFile} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := re.workspace
	if st.WorkingDirectory != "" {
		dir = eval(t, st.WorkingDirectory, ctx)
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-eo", "pipefail", script)
	cmd.Dir = dir
	cmd.Env = append(baseEnv(),
		"GITHUB_ACTIONS=true", "CI=true",
		"GITHUB_OUTPUT="+outFile, "GITHUB_STEP_SUMMARY="+sumFile,
		"RUNNER_TEMP="+re.runnerTemp, "GITHUB_ACTION_PATH="+re.actionPath, "GITHUB_WORKSPACE="+re.workspace)
	cmd.Env = append(cmd.Env, re.env...)
	for k, v := range st.Env {
		cmd.Env = append(cmd.Env, k+"="+eval(t, v, ctx))
	}
	var o, e bytes.Buffer
	cmd.Stdout, cmd.Stderr = &o, &e
	err := cmd.Run()
	stdout.Write(o.Bytes())
	stderr.Write(e.Bytes())
	code := 0
	if err != nil {
		ee, ok := err.(*exec.ExitError)
		if !ok {
			t.Fatalf("step %d (%s): %v", i, st.Name, err)
		}
		code = ee.ExitCode()
	}
	outs, err := parseOutputFile(outFile)
	if err != nil {
		t.Fatalf("step %d (%s): $GITHUB_OUTPUT: %v", i, st.Name, err)
	}
	sum, err := os.ReadFile(sumFile)
	if err != nil {
		t.Fatal(err)
	}
	return code, outs, string(sum)
}

// baseEnv is the test's environment without what a runner sets per step
// and without anything that would point kubeplan elsewhere.
func baseEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		k, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(k, "GITHUB_") || strings.HasPrefix(k, "RUNNER_") || strings.HasPrefix(k, "KUBEPLAN_") ||
			k == "KUBECONFIG" || k == "CI" {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// parseOutputFile reads a $GITHUB_OUTPUT file as the runner does:
// "name=value" lines and "name<<DELIMITER" ... "DELIMITER" blocks.
func parseOutputFile(path string) (map[string]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	outs := map[string]string{}
	lines := strings.Split(string(b), "\n")
	for i := 0; i < len(lines); i++ {
		l := lines[i]
		if l == "" {
			continue
		}
		if name, delim, ok := strings.Cut(l, "<<"); ok && !strings.Contains(name, "=") {
			var val []string
			for i++; ; i++ {
				if i >= len(lines) {
					return nil, fmt.Errorf("output %s: no closing delimiter %q", name, delim)
				}
				if lines[i] == delim {
					break
				}
				val = append(val, lines[i])
			}
			outs[name] = strings.Join(val, "\n")
			continue
		}
		name, val, ok := strings.Cut(l, "=")
		if !ok {
			return nil, fmt.Errorf("line %d: %q is neither name=value nor name<<DELIMITER", i+1, l)
		}
		outs[name] = val
	}
	return outs, nil
}
