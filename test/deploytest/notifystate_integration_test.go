package deploytest

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/internal/testing/testkube"
	"github.com/kubeplan/kubeplan/notify"
	"github.com/kubeplan/kubeplan/render"
)

// testNotifyState keeps notify's state in a ConfigMap of kubeplan-system
// as the ServiceAccount, with the rights deploy/base gives it: a restarted
// notifier does not notify an ongoing failure again, and notifies its recovery.
func testNotifyState(t *testing.T, c *testkube.Cluster) {
	client, err := kube.NewFromKubeconfig(serviceAccountKubeconfig(t, c), "kubeplan-system")
	if err != nil {
		t.Fatal(err)
	}
	var received atomic.Int32
	hook := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { received.Add(1) }))
	defer hook.Close()
	state := notify.ConfigMapState{Client: client.Dynamic, Namespace: "kubeplan-system", Name: "kubeplan-notify"}
	observe := func(err error) {
		t.Helper()
		n, nerr := notify.New(notify.Config{Webhook: hook.URL, State: state, Words: render.NotifyWords{}}, nil) // a new process each time
		if nerr != nil {
			t.Fatal(nerr)
		}
		r := notify.Run{Project: "store", Revision: "0123456789abcdef", Namespace: "store", Err: err, End: time.Now()}
		if oerr := n.Observe(context.Background(), r); oerr != nil {
			t.Fatalf("Observe as the ServiceAccount: %v", oerr)
		}
	}
	observe(errors.New("boom"))
	observe(errors.New("boom"))
	if got := received.Load(); got != 1 {
		t.Fatalf("%d notifications for a failure observed by two processes, want 1", got)
	}
	ann := c.Kubectl(t, "-n", "kubeplan-system", "get", "configmap", "kubeplan-notify", "-o", `jsonpath={.metadata.annotations.kubeplan\.dev/notify-state}`)
	if !strings.Contains(ann, `"store":{"failing":true`) || !strings.Contains(ann, `"notified":"failing"`) {
		t.Errorf("state kept in the ConfigMap: %s", ann)
	}
	observe(nil)
	if got := received.Load(); got != 2 {
		t.Fatalf("%d notifications after the recovery, want 2", got)
	}
}
