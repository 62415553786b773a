package notify_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	. "github.com/kubeplan/kubeplan/notify"
	"github.com/kubeplan/kubeplan/render"
)

// hook is a webhook receiver that records the bodies it gets and answers
// with the statuses of fail first, then 200.
type hook struct {
	*httptest.Server
	mu     sync.Mutex
	bodies []string
	fail   []int
}

func newHook(t *testing.T, fail ...int) *hook {
	h := &hook{fail: fail}
	h.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h.mu.Lock()
		defer h.mu.Unlock()
		h.bodies = append(h.bodies, string(body))
		if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" {
			w.WriteHeader(http.StatusBadRequest)
			return
		}
		if len(h.fail) > 0 {
			code := h.fail[0]
			h.fail = h.fail[1:]
			w.WriteHeader(code)
			return
		}
		w.WriteHeader(http.StatusOK)
	}))
	t.Cleanup(h.Close)
	return h
}

func (h *hook) received() []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.bodies...)
}

// kinds are the "kind" of each JSON payload received.
func (h *hook) kinds(t *testing.T) []string {
	t.Helper()
	var out []string
	for _, b := range h.received() {
		var e Event
		if err := json.Unmarshal([]byte(b), &e); err != nil {
			t.Fatalf("payload %q: %v", b, err)
		}
		out = append(out, e.Kind)
	}
	return out
}

func newNotifier(t *testing.T, cfg Config) *Notifier {
	t.Helper()
	if cfg.Words == nil {
		cfg.Words = render.NotifyWords{}
	}
	n, err := New(cfg, nil)
	if err != nil {
		t.Fatal(err)
	}
	SetBackoff(n, time.Millisecond)
	return n
}

var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

// run is the i-th run of project store, failing with err when it is not nil.
func run(i int, rev string, err error) Run {
	return Run{Project: "store", Revision: rev, Cluster: "prod", Namespace: "store", ApplySet: "configmap/gitops-applyset",
		Err: err, Applied: 1, Unchanged: 9, Start: t0.Add(time.Duration(i) * time.Minute), End: t0.Add(time.Duration(i)*time.Minute + 3*time.Second)}
}

func observe(t *testing.T, n *Notifier, r Run) {
	t.Helper()
	if err := n.Observe(context.Background(), r); err != nil {
		t.Fatalf("Observe: %v", err)
	}
}

func TestFailingOnceRecoveredOnce(t *testing.T) {
	h := newHook(t)
	n := newNotifier(t, Config{Webhook: h.URL})
	rev := "0123456789abcdef0123456789abcdef01234567"

	observe(t, n, run(0, rev, nil))
	observe(t, n, run(1, rev, nil))
	if got := h.kinds(t); len(got) != 0 {
		t.Fatalf("healthy runs sent %v, want nothing", got)
	}
	observe(t, n, run(2, rev, errors.New("deployment.apps/web: 0/3 available: ImagePullBackOff")))
	if got := h.kinds(t); len(got) != 1 || got[0] != KindFailing {
		t.Fatalf("after the first failure: %v, want [failing]", got)
	}
	// Still failing, also with another error: nothing more.
	observe(t, n, run(3, rev, errors.New("deployment.apps/web: 0/3 available: ImagePullBackOff")))
	observe(t, n, run(4, "fedcba9876543210fedcba9876543210fedcba98", errors.New("configmap/settings: dry-run: admission webhook denied")))
	if got := h.kinds(t); len(got) != 1 {
		t.Fatalf("after repeated failures: %v, want only the first", got)
	}
	observe(t, n, run(5, rev, nil))
	observe(t, n, run(6, rev, nil))
	if got := h.kinds(t); len(got) != 2 || got[1] != KindRecovered {
		t.Fatalf("after recovery: %v, want [failing recovered]", got)
	}
	var rec Event
	if err := json.Unmarshal([]byte(h.received()[1]), &rec); err != nil {
		t.Fatal(err)
	}
	if !rec.FailingSince.Equal(run(2, rev, nil).End) || rec.Error != "" ||
		rec.Summary != "kubeplan: project store recovered (revision 0123456, cluster prod, namespace store) after failing for 3m0s: 1 applied, 0 pruned, 9 unchanged" {
		t.Errorf("recovered event: %+v", rec)
	}
	// A new failure is a new incident.
	observe(t, n, run(7, rev, errors.New("boom")))
	if got := h.kinds(t); len(got) != 3 || got[2] != KindFailing {
		t.Fatalf("after a new failure: %v", got)
	}
}

func TestProjectsAreApart(t *testing.T) {
	h := newHook(t)
	n := newNotifier(t, Config{Webhook: h.URL})
	a, b := run(0, "aaaaaaa", errors.New("boom")), run(0, "bbbbbbb", errors.New("boom"))
	b.Project = "shop"
	observe(t, n, a)
	observe(t, n, b)
	observe(t, n, a)
	observe(t, n, b)
	if got := h.kinds(t); len(got) != 2 {
		t.Fatalf("two failing projects: %v, want one notification each", got)
	}
}

// A notification the webhook refused is sent again on the next run.
func TestUndeliveredIsSentNextRun(t *testing.T) {
	h := newHook(t, http.StatusBadRequest)
	n := newNotifier(t, Config{Webhook: h.URL})
	err := n.Observe(context.Background(), run(0, "abc", errors.New("boom")))
	if err == nil || !strings.Contains(err.Error(), "webhook (failing): 400 Bad Request") {
		t.Fatalf("a refused webhook: %v", err)
	}
	if got := len(h.received()); got != 1 {
		t.Fatalf("a 400 was tried %d times, want once (not retried)", got)
	}
	observe(t, n, run(1, "abc", errors.New("boom")))
	observe(t, n, run(2, "abc", errors.New("boom")))
	if got := len(h.received()); got != 2 {
		t.Fatalf("%d requests, want the failing notification once more, then nothing", got)
	}
	// Recovery before any failing notification was delivered sends nothing.
	h2 := newHook(t, 400)
	n2 := newNotifier(t, Config{Webhook: h2.URL})
	_ = n2.Observe(context.Background(), run(0, "abc", errors.New("boom")))
	observe(t, n2, run(1, "abc", nil))
	if got := len(h2.received()); got != 1 {
		t.Fatalf("%d requests, want none after the undelivered failure", got)
	}
}

func TestRetriesServerErrors(t *testing.T) {
	h := newHook(t, 503, 502)
	n := newNotifier(t, Config{Webhook: h.URL})
	observe(t, n, run(0, "abc", errors.New("boom")))
	if got := len(h.received()); got != 3 {
		t.Fatalf("%d requests, want 2 failed and 1 delivered", got)
	}

	h = newHook(t, 500, 500, 500, 500, 500, 500)
	n = newNotifier(t, Config{Webhook: h.URL})
	err := n.Observe(context.Background(), run(0, "abc", errors.New("boom")))
	if err == nil || !strings.Contains(err.Error(), "500 Internal Server Error (after 4 tries)") {
		t.Fatalf("a webhook failing every time: %v", err)
	}
	if got := len(h.received()); got != Attempts {
		t.Fatalf("%d requests, want %d", got, Attempts)
	}
}

// A webhook that never answers holds Observe for Config.Timeout at most.
func TestTimeoutBoundsObserve(t *testing.T) {
	release := make(chan struct{})
	var requests int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		requests++
		mu.Unlock()
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	n := newNotifier(t, Config{Webhook: srv.URL, Timeout: 100 * time.Millisecond})
	err := n.Observe(context.Background(), run(0, "abc", errors.New("boom")))
	if err == nil || !strings.Contains(err.Error(), "deadline exceeded") && !strings.Contains(err.Error(), "Timeout") {
		t.Fatalf("a stalled webhook: %v, want a timeout", err)
	}
	if strings.Contains(err.Error(), srv.URL) {
		t.Errorf("the webhook URL is in the error: %v", err)
	}
}

// memState is a State in memory, as a ConfigMap would keep it across processes.
type memState struct {
	data    []byte
	loadErr error
	saves   int
}

func (m *memState) Load(context.Context) (map[string]ProjectState, error) {
	if m.loadErr != nil {
		return nil, m.loadErr
	}
	out := map[string]ProjectState{}
	if m.data == nil {
		return out, nil
	}
	return out, json.Unmarshal(m.data, &out)
}

func (m *memState) Save(_ context.Context, p map[string]ProjectState) error {
	m.saves++
	var err error
	m.data, err = json.Marshal(p)
	return err
}

// A restart during a failure does not notify it again when the state is kept.
func TestStateAcrossRestarts(t *testing.T) {
	h := newHook(t)
	st := &memState{}
	observe(t, newNotifier(t, Config{Webhook: h.URL, State: st}), run(0, "abc", errors.New("boom")))
	if !strings.Contains(string(st.data), `"notified":"failing"`) {
		t.Fatalf("saved state %s", st.data)
	}
	n := newNotifier(t, Config{Webhook: h.URL, State: st}) // the restarted process
	observe(t, n, run(1, "abc", errors.New("boom")))
	if got := h.kinds(t); len(got) != 1 {
		t.Fatalf("after a restart: %v, want the one failing notification of before", got)
	}
	saves := st.saves
	observe(t, n, run(2, "abc", errors.New("boom")))
	if st.saves != saves {
		t.Errorf("an unchanged state was saved again")
	}
	observe(t, n, run(3, "abc", nil))
	if got := h.kinds(t); len(got) != 2 || got[1] != KindRecovered {
		t.Fatalf("recovery after a restart: %v", got)
	}
	var rec Event
	_ = json.Unmarshal([]byte(h.received()[1]), &rec)
	if !rec.FailingSince.Equal(run(0, "", nil).End) {
		t.Errorf("failingSince %v, want the first failure's end from before the restart", rec.FailingSince)
	}
}

// A state that cannot be read is reported, never overwritten, and read
// again on the next run; notifications go on from memory meanwhile.
func TestStateUnreadable(t *testing.T) {
	h := newHook(t)
	st := &memState{loadErr: errors.New("configmaps \"kubeplan-notify\" is forbidden")}
	n := newNotifier(t, Config{Webhook: h.URL, State: st})
	err := n.Observe(context.Background(), run(0, "abc", errors.New("boom")))
	if err == nil || !strings.Contains(err.Error(), "reading the notification state") {
		t.Fatalf("Observe: %v", err)
	}
	if st.saves != 0 || len(h.received()) != 1 {
		t.Fatalf("saves %d, notifications %d: want 0 and 1", st.saves, len(h.received()))
	}
	st.loadErr = nil
	observe(t, n, run(1, "abc", nil))
	if got := h.kinds(t); len(got) != 2 || st.saves != 1 || strings.Contains(string(st.data), "failing") {
		t.Fatalf("after the state became readable: %v, saves %d, state %s", got, st.saves, st.data)
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	for _, tc := range []struct {
		cfg  Config
		want string
	}{
		{Config{Format: "xml"}, `--notify-format "xml": want one of json, slack, teams`},
		{Config{Webhook: "ftp://x"}, "not an http(s) URL"},
		{Config{GitHubRepository: "acme"}, "is not OWNER/NAME"},
		{Config{GitHubRepository: "acme/shop"}, "needs a token"},
		{Config{Webhook: "https://hooks.example/x"}, "no Words"},
		{Config{GitHubRepository: "acme/shop", GitHubToken: "t"}, "no Words"},
	} {
		if _, err := New(tc.cfg, nil); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("New(%+v): %v, want %q", tc.cfg, err, tc.want)
		}
	}
	n, err := New(Config{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := n.Observe(context.Background(), run(0, "abc", errors.New("boom"))); err != nil {
		t.Errorf("a notifier with nowhere to send: %v", err)
	}
}

// serve observes its projects concurrently: each failing project is
// notified exactly once (run with -race).
func TestConcurrentProjects(t *testing.T) {
	h := newHook(t)
	st := &memState{}
	n := newNotifier(t, Config{Webhook: h.URL, State: st})
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			r := run(i, "abc", errors.New("boom"))
			r.Project = []string{"a", "b", "c", "d"}[i%4]
			if err := n.Observe(context.Background(), r); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if got := len(h.received()); got != 4 {
		t.Fatalf("%d notifications for 4 failing projects", got)
	}
	saved, _ := st.Load(context.Background())
	if len(saved) != 4 {
		t.Errorf("saved state of %d projects, want 4", len(saved))
	}
}
