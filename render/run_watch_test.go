package render

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/source"
)

// The question before apply: only "yes" approves; the question is asked
// on w, and a closed stdin ends the line.
func TestApprove(t *testing.T) {
	for in, want := range map[string]error{"yes\n": nil, " yes \n": nil, "no\n": run.ErrNotApproved, "": run.ErrNotApproved, "yes please\n": run.ErrNotApproved} {
		var w bytes.Buffer
		err := Approve(strings.NewReader(in), &w)
		if !errors.Is(err, want) || (want == nil) != (err == nil) {
			t.Errorf("answer %q: %v, want %v", in, err, want)
		}
		// a newline ends the prompt line after "yes" or a closed stdin
		newline := in == "" || want == nil
		if !strings.Contains(w.String(), "Do you want to perform these actions?") || strings.HasSuffix(w.String(), "Enter a value: \n") != newline {
			t.Errorf("answer %q: asked %q", in, w.String())
		}
	}
}

// RunWatch: a line per project done, the commit of a --source, the
// objects for the masks; each part optional.
func TestRunWatch(t *testing.T) {
	var lines, src bytes.Buffer
	var masked int
	w := RunWatch{Lines: &lines, Verb: "applied", Source: &src, Masks: func(objs []*manifest.Object) { masked += len(objs) }}
	w.ProjectDone(run.ProjectReport{Project: project.Project{Name: "web"}, Status: run.Failed})
	w.Checked(&source.Revision{ShortSHA: "abc1234", Subject: "Bump web"})
	w.Loaded([]*manifest.Object{{}, {}})
	w.Planning(project.Project{}, 1, 2) // no bar: nothing
	if lines.String() != "kubeplan: applied web: failed\n" || src.String() != "planning abc1234 Bump web\n" || masked != 2 {
		t.Fatalf("lines %q, source %q, masked %d", lines.String(), src.String(), masked)
	}
	quiet := RunWatch{}
	quiet.ProjectDone(run.ProjectReport{})
	quiet.Checked(nil)
	quiet.Loaded(nil)
	var _ run.ProgressObserver = quiet
	var _ run.Preparing = quiet
}

// LintFailure prints a lint failure's findings, nothing for another error.
func TestLintFailure(t *testing.T) {
	rep := lint.Report{Findings: []lint.Finding{{File: "app/cm.yaml", Line: 3, Col: 1, Severity: lint.Error, Rule: "schema", Message: "metadata.name is missing"}}}
	var w bytes.Buffer
	LintFailure(&w, fmt.Errorf("web: %w", &run.LintError{Report: rep}), false)
	if !strings.Contains(w.String(), "app/cm.yaml:3:1: error schema: metadata.name is missing") {
		t.Fatalf("lint failure shown as %q", w.String())
	}
	w.Reset()
	LintFailure(&w, errors.New("the server refused"), false)
	if w.Len() != 0 {
		t.Fatalf("another error shown as %q", w.String())
	}
}
