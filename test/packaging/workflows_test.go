package packaging

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rhysd/actionlint"
)

// published is how the examples use the action; the lint copies use the
// action in the repository instead ("./"), so actionlint reads action.yml
// and checks every with: against its inputs.
const published = "uses: kubeplan/kubeplan@v1"

// lintProject lays out a repository in a temp dir: action.yml at the root
// and each workflow (name -> content) in .github/workflows with the action
// used as "./". It returns actionlint's findings.
func lintProject(t *testing.T, workflows map[string]string) []*actionlint.Error {
	t.Helper()
	proj := t.TempDir()
	action, err := os.ReadFile(filepath.Join(repoRoot(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	wfDir := filepath.Join(proj, ".github", "workflows")
	if err := os.MkdirAll(wfDir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(proj, "action.yml"), action, 0o644); err != nil {
		t.Fatal(err)
	}
	var paths []string
	for name, body := range workflows {
		p := filepath.Join(wfDir, name)
		if err := os.WriteFile(p, []byte(strings.ReplaceAll(body, published, "uses: ./")), 0o644); err != nil {
			t.Fatal(err)
		}
		paths = append(paths, p)
	}
	opts := &actionlint.LinterOptions{WorkingDir: proj, LogWriter: io.Discard}
	if sc, err := exec.LookPath("shellcheck"); err == nil {
		opts.Shellcheck = sc
	} else {
		lookPath(t, "shellcheck", "shellcheck") // skip, or fail in CI
	}
	l, err := actionlint.NewLinter(io.Discard, opts)
	if err != nil {
		t.Fatal(err)
	}
	p, err := actionlint.NewProject(proj)
	if err != nil {
		t.Fatal(err)
	}
	errs, err := l.LintFiles(paths, p)
	if err != nil {
		t.Fatal(err)
	}
	return errs
}

// exampleWorkflows reads examples/github/*.yml.
func exampleWorkflows(t *testing.T) map[string]string {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(repoRoot(t), "examples", "github", "*.yml"))
	if err != nil || len(paths) == 0 {
		t.Fatalf("no examples/github/*.yml (%v)", err)
	}
	wfs := map[string]string{}
	for _, p := range paths {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		wfs[filepath.Base(p)] = string(b)
	}
	return wfs
}

// TestWorkflowExamples validates every example workflow with actionlint
// (syntax, expressions, events, permissions, runner labels, shellcheck on
// run: scripts) and with the action's own metadata for its inputs.
func TestWorkflowExamples(t *testing.T) {
	wfs := exampleWorkflows(t)
	for _, name := range []string{"pr.yml", "apply.yml", "drift-repair.yml", "sarif.yml"} {
		body, ok := wfs[name]
		switch {
		case !ok:
			t.Errorf("examples/github/%s is missing", name)
		case !strings.Contains(body, published):
			t.Errorf("examples/github/%s does not use the action as %q", name, published)
		}
	}
	for _, e := range lintProject(t, wfs) {
		t.Errorf("examples/github/%s", strings.TrimPrefix(e.Error(), filepath.Dir(e.Filepath)+"/"))
	}
}

// TestWorkflowLintCatches makes sure the check above has teeth: it reads
// action.yml (a misspelt input), types expressions (a step that does not
// exist) and runs shellcheck on scripts (an unquoted variable).
func TestWorkflowLintCatches(t *testing.T) {
	wfs := exampleWorkflows(t)
	apply := strings.Replace(wfs["apply.yml"], "applyset:", "apply-set:", 1)
	repair := strings.Replace(wfs["drift-repair.yml"], "steps.apply.outputs.has-changes", "steps.aply.outputs.has-changes", 1)
	repair = strings.Replace(repair, `printf '%s\n' "$SUMMARY"`, `echo $SUMMARY`, 1)
	if apply == wfs["apply.yml"] || repair == wfs["drift-repair.yml"] {
		t.Fatal("the examples changed: update the mutations of this test")
	}
	found := map[string]string{}
	for _, e := range lintProject(t, map[string]string{"apply.yml": apply, "drift-repair.yml": repair}) {
		found[e.Kind] += e.Message + "\n"
	}
	if !strings.Contains(found["action"], `input "apply-set" is not defined in action "kubeplan"`) {
		t.Errorf("actionlint did not check the input against action.yml; it said %v", found)
	}
	if !strings.Contains(found["expression"], `property "aply" is not defined`) {
		t.Errorf("actionlint did not report the unknown step; it said %v", found)
	}
	if !strings.Contains(found["shellcheck"], "SC2086") {
		t.Errorf("shellcheck did not run on the run: script; actionlint said %v", found)
	}
}
