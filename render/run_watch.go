package render

import (
	"errors"
	"io"

	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/project"
	"github.com/kubeplan/kubeplan/run"
	"github.com/kubeplan/kubeplan/source"
)

// RunWatch is how the command line watches a run (a run.ProgressObserver):
// a plain invocation's progress bar, a line per project done over
// projects, and the objects for GitHub mode's masks. Each part may be
// unset.
type RunWatch struct {
	run.Quiet
	// Bar is a plain invocation's progress bar: Planning moves it.
	Bar *ProgressView
	// Lines, when not nil, gets a line as each project is done
	// (RunProgress), Verb its word ("planned", "applied").
	Lines io.Writer
	Verb  string
	// Masks, when set, sees every project's objects before anything
	// about them is shown (GitHub mode masks their Secret values).
	Masks func([]*manifest.Object)
	// Source, when not nil, gets the line naming the commit of a --source
	// checkout (Planning; run.Preparing).
	Source io.Writer
}

// Loaded passes the objects to Masks.
func (w RunWatch) Loaded(objs []*manifest.Object) {
	if w.Masks != nil {
		w.Masks(objs)
	}
}

// ProjectDone writes the project's line to Lines.
func (w RunWatch) ProjectDone(pr run.ProjectReport) {
	if w.Lines != nil {
		_ = RunProgress(w.Lines, w.Verb, pr)
	}
}

// Planning moves the progress bar.
func (w RunWatch) Planning(_ project.Project, done, total int) {
	if w.Bar != nil {
		w.Bar.Planning(done, total)
	}
}

// Checked writes which commit of a --source is read, to Source.
func (w RunWatch) Checked(rev *source.Revision) {
	if w.Source != nil {
		Planning(w.Source, rev)
	}
}

// LintFailure shows, as text, the findings of err when it is a project's
// lint failure (run.LintError): a plain invocation prints them on stderr
// before its error.
func LintFailure(w io.Writer, err error, color bool) {
	var le *run.LintError
	if errors.As(err, &le) {
		_ = Lint(w, "text", le.Report, LintOptions{Color: color})
	}
}
