package serve

import (
	"errors"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/render"
)

// suspendedRun marks a run refused because its project is suspended
// (kubeplan suspend): it wrote nothing, and it is no failure. The run's
// outcome is "suspended" (r.Suspended says by whom and why); no Event,
// no notification, and the metrics only set kubeplan_suspended.
func suspendedRun(r *RunResult) {
	var se *apply.SuspendedError
	if errors.As(r.Err, &se) {
		r.Err, r.Suspended = nil, render.SuspensionText(&se.Suspension)
		if r.Suspended == "" {
			r.Suspended = "suspended"
		}
	}
}

// Outcome is the run's outcome in a word: suspended, failed or ok.
func (r RunResult) Outcome() string {
	switch {
	case r.Suspended != "":
		return "suspended"
	case r.Err != nil:
		return "failed"
	}
	return "ok"
}

// newSuspendedGauge registers kubeplan_suspended in reg.
func newSuspendedGauge(reg *prometheus.Registry) *prometheus.GaugeVec {
	g := prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kubeplan_suspended",
		Help: "1 while the project is suspended (kubeplan suspend): serve skips it and writes nothing; else 0."}, []string{"project"})
	reg.MustRegister(g)
	return g
}

// observeSuspended sets kubeplan_suspended for r's project and reports
// whether r was suspended: such a run is neither a success nor a
// failure, and the other metrics keep what the last real run said.
func (m *metrics) observeSuspended(r RunResult) bool {
	v := 0.0
	if r.Suspended != "" {
		v = 1
	}
	m.suspended.WithLabelValues(r.Project).Set(v)
	return r.Suspended != ""
}
