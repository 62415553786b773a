package ghview

import (
	"slices"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
)

// scrubbedResult is res with every text of its health diagnoses passed
// through scrub (the view's masks: tokens, the manifests' Secret values,
// values decrypted from SOPS), for the job summary, the annotations and
// the comment. The engine masked the Secret values it knows of already;
// this also hides what only the view was told. res is not changed.
func scrubbedResult(res *apply.Result, scrub func(string) string) *apply.Result {
	if res == nil || !slices.ContainsFunc(res.Health, func(h health.Result) bool { return h.Diagnosis != nil }) {
		return res
	}
	cp := *res
	cp.Health = slices.Clone(res.Health)
	for i, h := range cp.Health {
		cp.Health[i].Message = scrub(h.Message)
		if h.Diagnosis != nil {
			cp.Health[i].Diagnosis = scrubbedDiagnosis(h.Diagnosis, scrub)
		}
	}
	return &cp
}

// scrubbedDiagnosis is a copy of d with every text passed through scrub.
func scrubbedDiagnosis(d *health.Diagnosis, scrub func(string) string) *health.Diagnosis {
	cp := *d
	cp.Causes = slices.Clone(d.Causes)
	for i := range cp.Causes {
		c := &cp.Causes[i]
		c.Message, c.TerminationMessage, c.LogNote = scrub(c.Message), scrub(c.TerminationMessage), scrub(c.LogNote)
		c.Log = slices.Clone(c.Log)
		for j, l := range c.Log {
			c.Log[j] = scrub(l)
		}
	}
	cp.Events = slices.Clone(d.Events)
	for i := range cp.Events {
		cp.Events[i].Note = scrub(cp.Events[i].Note)
	}
	cp.Missing = slices.Clone(d.Missing)
	for i, m := range cp.Missing {
		cp.Missing[i] = scrub(m)
	}
	return &cp
}
