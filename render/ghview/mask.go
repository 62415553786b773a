package ghview

import (
	"io"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/sops"
	"github.com/kubeplan/kubeplan/manifest"
	"github.com/kubeplan/kubeplan/plan"
)

// masker registers secrets with the runner once each, on w.
type masker struct {
	w    io.Writer
	seen map[string]bool
	all  []string // every value registered, for scrub
}

func newMasker(w io.Writer) *masker { return &masker{w: w, seen: map[string]bool{}} }

// add registers values (see ghactions.Masks for what is skipped) that were
// not registered yet.
func (m *masker) add(values ...string) {
	var fresh []string
	for _, v := range ghactions.Masks(values...) {
		if !m.seen[v] {
			m.seen[v] = true
			fresh = append(fresh, v)
		}
	}
	m.all = append(m.all, fresh...)
	_ = ghactions.WriteMasks(ghactions.CommandWriter(unscrubbed(m.w)), fresh...)
}

// unscrubbed is the writer under w when w hides decrypted values
// (render.ScrubWriter), after what it holds is written: the ::add-mask::
// commands must reach the runner with the value they register.
func unscrubbed(w io.Writer) io.Writer {
	if s, ok := w.(interface {
		Flush() error
		Unwrap() io.Writer
	}); ok {
		_ = s.Flush()
		return s.Unwrap()
	}
	return w
}

// objects registers the Secret values of the manifests, and every value
// decrypted from SOPS to read them (sops.Revealed): wherever a
// kustomization copied one, it is a secret.
func (m *masker) objects(objs []*manifest.Object) {
	m.add(sops.Revealed()...)
	for _, o := range objs {
		m.add(plan.SecretValues(o.Content)...)
	}
}

// plan registers the Secret values a plan carries, and the values
// decrypted from SOPS to make it.
func (m *masker) plan(p *plan.Plan) {
	m.add(sops.Revealed()...)
	for _, c := range p.Changes {
		m.add(plan.SecretValues(c.Object)...)
	}
}

// scrub hides every registered value and every value decrypted from SOPS
// in s, for text the runner does not mask (a pull-request comment, a job
// summary).
func (m *masker) scrub(s string) string { return ghactions.Scrub(sops.Scrub(s), m.all...) }
