package ghview

// TEMPORARY stub until the run view lands (deleted at merge).

import (
	"context"
	"io"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/run"
)

type RunOptions struct {
	Token   string
	Comment bool
	Version string
	Secrets []string
	Scope   string
}

type Run struct{ step }

func NewRun(env ghactions.Env, stderr io.Writer, o RunOptions) *Run {
	return &Run{step: newStep(env, stderr)}
}
func (v *Run) Loaded(objs []*manifest.Object)              {}
func (v *Run) Done(ctx context.Context, r *run.Report) error { return nil }
func (v *Run) Failed(ctx context.Context, err error)         {}
func (v *Run) Applied(r *run.Report) error                   { return nil }
