package apply_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/health"
	"github.com/kubeplan/kubeplan/plan"
)

// phaseLog records apply.Progress calls.
type phaseLog struct {
	mu     sync.Mutex
	phases []string
}

func (l *phaseLog) Phase(name string, done, total int) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.phases = append(l.phases, fmt.Sprintf("%s %d/%d", name, done, total))
}

func (l *phaseLog) Pending([]health.Result) {}

func TestIntegrationHealthExecuteReportsPhases(t *testing.T) {
	e := newEnv(t)
	for i := range 10 {
		e.write(fmt.Sprintf("cm-%d.yaml", i), strings.Replace(settings, "name: settings", fmt.Sprintf("name: cm-%d", i), 1))
	}
	e.write("deployment.yaml", deployment("1", "nginx:1.30"))
	e.write("service.yaml", service)
	log := &phaseLog{}
	if _, _, err := e.run(plan.Options{}, apply.Options{Reporter: log}); err != nil {
		t.Fatal(err)
	}
	first := log.phases
	for _, want := range []string{"writing 0/12", "writing 12/12", "waiting 12/12"} {
		if !slices.Contains(first, want) {
			t.Errorf("first apply: no %q in %v", want, first)
		}
	}
	// ConfigMaps and the ClusterIP Service are Current on write: the wait
	// starts with 11 of 12.
	if i := slices.IndexFunc(first, func(s string) bool { return strings.HasPrefix(s, "waiting") }); i < 0 || first[i] != "waiting 11/12" && first[i] != "waiting 12/12" {
		t.Errorf("the wait should start at 11/12 or more: %v", first)
	}
	for i := range 3 {
		os.Remove(filepath.Join(e.dir, fmt.Sprintf("cm-%d.yaml", i)))
	}
	log.phases = nil
	if _, _, err := e.run(plan.Options{}, apply.Options{Reporter: log}); err != nil {
		t.Fatal(err)
	}
	if want := []string{"pruning 0/3", "pruning 3/3"}; !slices.Equal(log.phases, want) {
		t.Errorf("prune: %v, want %v", log.phases, want)
	}
}
