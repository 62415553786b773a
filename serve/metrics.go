package serve

import (
	"sync"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// metrics are serve's Prometheus metrics, per project, in a registry of
// their own (plus the Go runtime's and the process's).
type metrics struct {
	reg         *prometheus.Registry
	lastRun     *prometheus.GaugeVec
	lastSuccess *prometheus.GaugeVec
	duration    *prometheus.HistogramVec
	result      *prometheus.GaugeVec
	runs        *prometheus.CounterVec
	failures    *prometheus.CounterVec
	lastReason  *prometheus.GaugeVec
	objects     *prometheus.GaugeVec
	drift       *prometheus.GaugeVec
	revision    *prometheus.GaugeVec
	pending     *prometheus.GaugeVec
	window      *prometheus.GaugeVec
	suspended   *prometheus.GaugeVec // suspend.go
	rounds      prometheus.Counter
	round       prometheus.Gauge
	webhooks    *prometheus.CounterVec
	srcFailures *prometheus.CounterVec
	srcFailing  prometheus.Gauge
	srcSince    prometheus.Gauge

	mu      sync.Mutex
	revs    map[string]string // project -> revision label set
	reasons map[string]string // project -> reason label set of lastReason
}

func newMetrics(cls *clusters) *metrics {
	m := &metrics{
		reg: prometheus.NewRegistry(),
		lastRun: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kubeplan_last_run_timestamp_seconds",
			Help: "When the project's last run ended (Unix time)."}, []string{"project"}),
		lastSuccess: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kubeplan_last_success_timestamp_seconds",
			Help: "When the project's last successful run ended (Unix time)."}, []string{"project"}),
		duration: prometheus.NewHistogramVec(prometheus.HistogramOpts{Name: "kubeplan_run_duration_seconds",
			Help:    "How long a project's run took: lint, plan, apply, health wait.",
			Buckets: []float64{0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300}}, []string{"project"}),
		result: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kubeplan_run_result",
			Help: "1 when the project's last run succeeded, 0 when it failed."}, []string{"project"}),
		runs: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kubeplan_runs_total",
			Help: "Runs of the project, by result (success, failure)."}, []string{"project", "result"}),
		failures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kubeplan_run_failures_total",
			Help: "Failed runs of the project, by reason: the failed health wait's main reason (CrashLoopBackOff, ImagePullBackOff, ...), Timeout, other, or error for a run that failed outside its health wait."},
			[]string{"project", "reason"}),
		lastReason: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kubeplan_last_failure_reason",
			Help: "1 with the reason of the project's last run while it failed (as kubeplan_run_failures_total's reason); absent after a success."},
			[]string{"project", "reason"}),
		objects: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kubeplan_objects",
			Help: "Objects of the project's last run, by state (applied, pruned, unchanged)."}, []string{"project", "state"}),
		drift: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kubeplan_drift_detected",
			Help: "1 when the project's last run found the cluster different from git (and repaired it), else 0."}, []string{"project"}),
		revision: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kubeplan_revision_info",
			Help: "The git commit of the project's last run, as the revision label (value 1)."}, []string{"project", "revision"}),
		pending: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kubeplan_pending_approvals",
			Help: "Changes of the project's last run that a guard rule holds for approval (serve never approves: apply them with kubeplan apply --approve RULE=REASON)."}, []string{"project"}),
		window: prometheus.NewGaugeVec(prometheus.GaugeOpts{Name: "kubeplan_change_window_closed",
			Help: "1 when the project's last run waited because its change windows were closed, else 0."}, []string{"project"}),
		rounds: prometheus.NewCounter(prometheus.CounterOpts{Name: "kubeplan_rounds_total",
			Help: "Rounds that ran at least one project."}),
		round: prometheus.NewGauge(prometheus.GaugeOpts{Name: "kubeplan_round_duration_seconds",
			Help: "How long the last round took, from the fetch to the last project's report."}),
		webhooks: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kubeplan_webhook_requests_total",
			Help: "Requests to the push webhooks, by provider (github, gitlab, generic) and result (accepted, ignored, ping, unauthorized, invalid, too-large, bad-method, error)."},
			[]string{"provider", "result"}),
		srcFailures: prometheus.NewCounterVec(prometheus.CounterOpts{Name: "kubeplan_source_failures_total",
			Help: "Rounds whose git source could not be fetched or read, by reason (auth, not-found, network, timeout, config, other)."},
			[]string{"reason"}),
		srcFailing: prometheus.NewGauge(prometheus.GaugeOpts{Name: "kubeplan_source_failing",
			Help: "1 while the git source cannot be fetched or read (nothing is applied or pruned meanwhile), else 0."}),
		srcSince: prometheus.NewGauge(prometheus.GaugeOpts{Name: "kubeplan_source_failing_since_timestamp_seconds",
			Help: "When the git source began failing (Unix time); 0 while it does not."}),
		revs: map[string]string{}, reasons: map[string]string{},
	}
	m.reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}),
		m.lastRun, m.lastSuccess, m.duration, m.result, m.runs, m.failures, m.lastReason, m.objects, m.drift, m.revision, m.pending, m.window, m.rounds, m.round,
		m.webhooks, m.srcFailures, m.srcFailing, m.srcSince,
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "kubeplan_kube_requests_total",
			Help: "Requests made to the clusters."}, func() float64 { return float64(requests(cls, (*kube.RequestCounter).Total)) }),
		prometheus.NewCounterFunc(prometheus.CounterOpts{Name: "kubeplan_kube_writes_total",
			Help: "Requests that change a cluster (POST, PUT, PATCH, DELETE; not dry-runs or access reviews)."},
			func() float64 { return float64(requests(cls, (*kube.RequestCounter).Writes)) }))
	m.suspended = newSuspendedGauge(m.reg)
	return m
}

// requests adds up count over the clusters' request counters.
func requests(cls *clusters, count func(*kube.RequestCounter) int) int {
	n := 0
	for _, c := range cls.all() {
		if c.Requests != nil {
			n += count(c.Requests)
		}
	}
	return n
}

// observeRound records a round that ran projects.
func (m *metrics) observeRound(d time.Duration) {
	m.rounds.Inc()
	m.round.Set(d.Seconds())
}

// observe records one run.
func (m *metrics) observe(r RunResult) {
	if m.observeSuspended(r) {
		return
	}
	p := r.Project
	end := float64(r.End.UnixNano()) / 1e9
	m.lastRun.WithLabelValues(p).Set(end)
	m.duration.WithLabelValues(p).Observe(r.End.Sub(r.Start).Seconds())
	reason := failureReason(r.Err)
	if r.Err != nil {
		m.result.WithLabelValues(p).Set(0)
		m.runs.WithLabelValues(p, "failure").Inc()
		m.failures.WithLabelValues(p, reason).Inc()
	} else {
		m.result.WithLabelValues(p).Set(1)
		m.runs.WithLabelValues(p, "success").Inc()
		m.lastSuccess.WithLabelValues(p).Set(end)
	}
	m.objects.WithLabelValues(p, "applied").Set(float64(r.Applied))
	m.objects.WithLabelValues(p, "pruned").Set(float64(r.Pruned))
	m.objects.WithLabelValues(p, "unchanged").Set(float64(r.Unchanged))
	drift := 0.0
	if r.Drift() {
		drift = 1
	}
	m.drift.WithLabelValues(p).Set(drift)
	m.pending.WithLabelValues(p).Set(float64(r.Pending))
	closed := 0.0
	if r.WindowClosed != "" {
		closed = 1
	}
	m.window.WithLabelValues(p).Set(closed)
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.reasons[p]; ok && old != reason {
		m.lastReason.DeleteLabelValues(p, old)
		delete(m.reasons, p)
	}
	if reason != "" {
		m.reasons[p] = reason
		m.lastReason.WithLabelValues(p, reason).Set(1)
	}
	if old, ok := m.revs[p]; ok && old != r.Revision {
		m.revision.DeleteLabelValues(p, old)
	}
	m.revs[p] = r.Revision
	m.revision.WithLabelValues(p, r.Revision).Set(1)
}

// webhook counts one request to a push webhook.
func (m *metrics) webhook(provider, result string) {
	m.webhooks.WithLabelValues(provider, result).Inc()
}

// sourceFailed counts a round whose source failed for reason; since is
// when the failure began.
func (m *metrics) sourceFailed(reason string, since time.Time) {
	m.srcFailures.WithLabelValues(reason).Inc()
	m.srcFailing.Set(1)
	m.srcSince.Set(float64(since.UnixNano()) / 1e9)
}

// sourceOK records a source fetched and read.
func (m *metrics) sourceOK() {
	m.srcFailing.Set(0)
	m.srcSince.Set(0)
}
