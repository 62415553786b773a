package ghview

import (
	"io"
	"strconv"
	"sync"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/lint"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/render"
)

// Lint is kubeplan lint's GitHub view: masks, the full report in the job
// summary, and the outputs errors, warnings and summary.
type Lint struct {
	step
	mu sync.Mutex
}

// NewLint starts the view.
func NewLint(env ghactions.Env, stderr io.Writer) *Lint { return &Lint{step: newStep(env, stderr)} }

// Loaded masks the Secret values of a batch of objects; it may be called
// from several goroutines (lint.Options.Loaded). Secret values are never
// in a finding; masking them anyway keeps them out of the log should a
// message ever quote one.
func (v *Lint) Loaded(objs []*manifest.Object) {
	v.mu.Lock()
	defer v.mu.Unlock()
	v.mask.objects(objs)
}

// Done appends the report to the job summary and writes the outputs.
func (v *Lint) Done(rep lint.Report) error {
	v.summary("kubeplan lint", func(w io.Writer, room int) error {
		return render.LintMarkdown(w, rep, room)
	})
	return v.outputs(
		"errors", strconv.Itoa(rep.Count(lint.Error)),
		"warnings", strconv.Itoa(rep.Count(lint.Warning)),
		"summary", render.LintSummary(rep),
	)
}
