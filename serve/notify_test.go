package serve

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/kubeplan/kubeplan/notify"
)

type observed struct {
	runs []notify.Run
	err  error
}

func (o *observed) Observe(_ context.Context, r notify.Run) error {
	o.runs = append(o.runs, r)
	return o.err
}

// A run at the revision its project last ran, and applied, is a scheduled
// drift repair; the first run, a run at a new revision and a run after a
// failure at the same revision (a broken commit) are not. Counts, errors and
// the parent go through unchanged.
func TestNotifyScheduledAndFields(t *testing.T) {
	o := &observed{}
	on := Notify(o, nil)
	ctx := context.Background()
	boom := errors.New("boom")
	on(ctx, RunResult{Project: "shop", Revision: "a1", Applied: 2, Pruned: 1, Unchanged: 3, ApplySet: "configmap/shop", Namespace: "store"})
	on(ctx, RunResult{Project: "shop", Revision: "a1", Err: boom})
	on(ctx, RunResult{Project: "blog", Revision: "a1"})
	on(ctx, RunResult{Project: "shop", Revision: "b2"})
	on(ctx, RunResult{Project: "shop", Revision: "c3", Err: boom})
	on(ctx, RunResult{Project: "shop", Revision: "c3", Err: boom})
	want := []bool{false, true, false, false, false, false}
	for i, r := range o.runs {
		if r.Scheduled != want[i] {
			t.Errorf("run %d (%s at %s): Scheduled %v, want %v", i, r.Project, r.Revision, r.Scheduled, want[i])
		}
	}
	first := o.runs[0]
	if first.Applied != 2 || first.Pruned != 1 || first.Unchanged != 3 || !first.Drift || first.ApplySet != "configmap/shop" || first.Namespace != "store" {
		t.Errorf("first run %+v", first)
	}
	if !errors.Is(o.runs[1].Err, boom) {
		t.Errorf("the failing run's error: %v", o.runs[1].Err)
	}
}

// A notification that fails is logged, once, naming the project.
func TestNotifyLogsFailure(t *testing.T) {
	var log bytes.Buffer
	on := Notify(&observed{err: errors.New("webhook answered 500")}, &log)
	on(context.Background(), RunResult{Project: "shop", Revision: "a1"})
	if got := log.String(); !strings.Contains(got, "shop: notification: webhook answered 500") || strings.Count(got, "\n") != 1 {
		t.Errorf("log %q", got)
	}
}
