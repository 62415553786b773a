package apply

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/manifest/loader"
	"github.com/kubeplan/kubeplan/plan"
)

// The fence holds across stages: a lock lost while a wave is waited for
// stops the run there, and no later wave is written.
func TestIntegrationFenceStopsLaterStages(t *testing.T) {
	testkube.Integration(t)
	c := testkube.Shared(t)
	ns := c.Namespace(t)
	cl := lockTestNarrow(t, c, ns)
	dir := t.TempDir()
	set := "apiVersion: batch/v1\nkind: Job\nmetadata:\n  name: warm\nspec:\n  template:\n    spec:\n      restartPolicy: Never\n" +
		"      containers:\n      - {name: main, image: busybox, command: [\"true\"]}\n---\n" +
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: later\n  annotations:\n    argocd.argoproj.io/sync-wave: \"1\"\ndata: {k: v}\n"
	if err := os.WriteFile(filepath.Join(dir, "app.yaml"), []byte(set), 0o644); err != nil {
		t.Fatal(err)
	}
	res, err := loader.Load([]string{dir}, loader.Options{})
	if err != nil {
		t.Fatal(err)
	}
	as := applyset.Parent{Kind: "ConfigMap", Name: "set", Namespace: ns}
	p, err := plan.Make(t.Context(), cl, res.Objects, plan.Options{Namespace: ns, ApplySet: &as})
	if err != nil {
		t.Fatal(err)
	}
	fenced, lose := context.WithCancelCause(context.Background())
	defer lose(nil)
	go func() { // the lock is lost once wave 0's Job exists: during its wait
		for fenced.Err() == nil {
			if out, _ := c.TryKubectl("-n", ns, "get", "job", "warm", "--ignore-not-found", "-o", "name"); strings.TrimSpace(out) != "" {
				lose(ErrLockLost)
				return
			}
			time.Sleep(50 * time.Millisecond)
		}
	}()
	_, err = execute(context.Background(), fenced, cl, p, Options{ApplySet: &as, Version: "test", Timeout: 30 * time.Second})
	if !errors.Is(err, ErrLockLost) || FailedStage(err) != "wave 0" {
		t.Fatalf("error %v, want the lost lock, at wave 0", err)
	}
	if out, _ := c.TryKubectl("-n", ns, "get", "configmap", "later", "--ignore-not-found", "-o", "name"); strings.TrimSpace(out) != "" {
		t.Errorf("wave 1 written after the lock was lost: %s", out)
	}
}
