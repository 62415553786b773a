package render

import (
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
)

// fakeClock is a clock the test moves.
type fakeClock struct{ t time.Time }

func (c *fakeClock) now() time.Time                { return c.t }
func (c *fakeClock) at(d time.Duration) *fakeClock { c.t = time.Unix(1e9, 0).Add(d); return c }

func TestProgressLines(t *testing.T) {
	var b strings.Builder
	clk := (&fakeClock{}).at(0)
	v := newProgress(&b, false, clk.now)
	web := health.Result{Ref: obj("Deployment", "apps", "web", "").Ref, Status: health.InProgress, Message: "1/3 available: ImagePullBackOff"}
	job := health.Result{Ref: obj("Job", "batch", "migrate", "").Ref, Status: health.InProgress, Message: "0/1 succeeded"}

	// A phase under 2 s shows nothing.
	v.Planning(0, 10)
	clk.at(time.Second)
	v.Planning(5, 10)
	clk.at(1900 * time.Millisecond)
	v.Planning(10, 10)
	v.Phase(apply.PhaseWriting, 0, 1200)
	clk.at(3 * time.Second)
	v.Phase(apply.PhaseWriting, 1200, 1200)
	if b.String() != "" {
		t.Fatalf("short phases printed %q", b.String())
	}

	steps := []struct {
		at      time.Duration
		done    int
		pending []health.Result
	}{
		{3 * time.Second, 0, nil},                       // the wait starts
		{4 * time.Second, 1, nil},                       // < 2 s: nothing
		{5 * time.Second, 1, []health.Result{web, job}}, // 2 s: the first line
		{6 * time.Second, 2, []health.Result{web, job}}, // changed, but 1 s after the last line
		{11 * time.Second, 2, []health.Result{web}},     // changed since the last line, 6 s after it
		{12 * time.Second, 3, []health.Result{web}},
		{20 * time.Second, 3, []health.Result{web}}, // 9 s: nothing
		{21 * time.Second, 3, []health.Result{web}}, // 10 s: again
		{22 * time.Second, 4, nil},                  // done: the last line
	}
	for _, s := range steps {
		clk.at(s.at)
		if s.pending != nil {
			v.Pending(s.pending)
		}
		v.Phase(apply.PhaseWaiting, s.done, 4)
	}
	want := `waiting 1/4: deployment.apps/web (1/3 available: ImagePullBackOff), job.batch/migrate (0/1 succeeded)
waiting 2/4: deployment.apps/web (1/3 available: ImagePullBackOff)
waiting 3/4: deployment.apps/web (1/3 available: ImagePullBackOff)
waiting 4/4
`
	if b.String() != want {
		t.Errorf("got\n%s\nwant\n%s", b.String(), want)
	}
}

func TestProgressLinesPruneAndClose(t *testing.T) {
	var b strings.Builder
	clk := (&fakeClock{}).at(0)
	v := newProgress(&b, false, clk.now)
	v.Phase(apply.PhasePruning, 0, 30)
	clk.at(2 * time.Second)
	v.Phase(apply.PhasePruning, 7, 30)
	clk.at(3 * time.Second)
	v.Phase(apply.PhasePruning, 9, 30)
	v.Close() // the run failed midway: the last count
	v.Close()
	if want := "pruning 7/30\npruning 9/30\n"; b.String() != want {
		t.Errorf("got %q, want %q", b.String(), want)
	}
}

func TestProgressBar(t *testing.T) {
	var b strings.Builder
	clk := (&fakeClock{}).at(0)
	v := newProgress(&b, true, clk.now)
	v.Phase(apply.PhaseWriting, 0, 100)
	clk.at(time.Second)
	v.Phase(apply.PhaseWriting, 100, 100)
	if b.String() != "" {
		t.Fatalf("a phase under 2 s drew %q", b.String())
	}
	v.Phase(apply.PhaseWaiting, 0, 4)
	clk.at(4 * time.Second)
	v.Phase(apply.PhaseWaiting, 2, 4)
	v.Pending([]health.Result{{Ref: obj("Deployment", "apps", "web", "").Ref, Message: "0/1 available: ImagePullBackOff"}})
	clk.at(5 * time.Second)
	v.Phase(apply.PhaseWaiting, 4, 4)
	out := b.String()
	for _, want := range []string{"\r", "waiting", "(2/4)", "(4/4)", "deployment.apps/web (0/1 available: Imag"} {
		if !strings.Contains(out, want) {
			t.Errorf("bar %q has no %q", out, want)
		}
	}
	if !strings.HasSuffix(out, "\n") || strings.Count(out, "\n") != 1 {
		t.Errorf("the bar should end with one newline: %q", out)
	}
	if strings.Contains(out, "writing") {
		t.Errorf("the short phase drew a bar: %q", out)
	}
}

func TestProgressNilWriter(t *testing.T) {
	v := Progress(nil, false)
	v.Phase(apply.PhaseWriting, 0, 1)
	v.Phase(apply.PhaseWriting, 1, 1)
	v.Pending(nil)
	v.Close()
}
