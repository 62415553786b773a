package kube

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/rest"
)

// A server that answers every GET of a ConfigMap with the warnings its
// name asks for, as the API server writes them (code 299, agent "-").
func warningServer(t *testing.T) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		name := r.URL.Path[len("/api/v1/namespaces/ns/configmaps/"):]
		w.Header().Add("Warning", fmt.Sprintf(`299 - "warning for %s"`, name))
		w.Header().Add("Warning", `299 - "shared warning"`)
		w.Header().Add("Warning", `199 - "not the server's"`)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"apiVersion":"v1","kind":"ConfigMap","metadata":{"name":%q,"namespace":"ns"}}`, name)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestCaptureWarningsPerContext(t *testing.T) {
	srv := warningServer(t)
	c, err := NewForConfig(&rest.Config{Host: srv.URL}, "ns")
	if err != nil {
		t.Fatal(err)
	}
	cms := c.Dynamic.Resource(schema.GroupVersionResource{Version: "v1", Resource: "configmaps"}).Namespace("ns")

	// Concurrent requests, each with its own Warnings: none gets
	// another's, and a warning repeated by a second request is kept once.
	names := []string{"a", "b", "c", "d", "e", "f", "g", "h"}
	got := make([][]string, len(names))
	var wg sync.WaitGroup
	for i, name := range names {
		wg.Add(1)
		go func() {
			defer wg.Done()
			ctx, w := CaptureWarnings(context.Background())
			for range 2 {
				if _, err := cms.Get(ctx, name, metav1.GetOptions{}); err != nil {
					t.Error(err)
				}
			}
			got[i] = w.List()
		}()
	}
	wg.Wait()
	for i, name := range names {
		want := []string{"warning for " + name, "shared warning"}
		if !slices.Equal(got[i], want) {
			t.Errorf("%s: warnings %q, want %q", name, got[i], want)
		}
	}

	// A request without Warnings drops them: nothing is logged or
	// printed by client-go (the handler is kubeplan's, not the default).
	if _, err := cms.Get(context.Background(), "z", metav1.GetOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, ok := c.Config.WarningHandlerWithContext.(contextWarnings); !ok || c.Config.WarningHandler != nil {
		t.Errorf("the client's warning handler is %T / %T, want contextWarnings only", c.Config.WarningHandlerWithContext, c.Config.WarningHandler)
	}
}
