package offline_test

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime/debug"
	"strings"
	"sync/atomic"
	"testing"

	"helm.sh/helm/v4/pkg/chart/common/util"

	_ "github.com/kubeplan/kubeplan/manifest/helm"
)

// TestHelmOnlyImporterOffline: in a binary that links manifest/helm and no
// kustomize, a request helm code makes through Go's default transport (a
// values.schema.json $ref loader with no transport of its own) is refused
// before it connects, while a request of other code still reaches the same
// listener.
func TestHelmOnlyImporterOffline(t *testing.T) {
	if info, ok := debug.ReadBuildInfo(); !ok {
		t.Fatal("no build info to check what the test binary links")
	} else {
		for _, m := range info.Deps {
			if strings.HasPrefix(m.Path, "sigs.k8s.io/kustomize/") {
				t.Fatalf("the test binary links %s: it must import the helm rendering only", m.Path)
			}
		}
	}
	url, conns := recordingServer(t)

	loader := (*util.HTTPURLLoader)(&http.Client{}) // nil Transport: Go's default
	if _, err := loader.Load(url + "/schema.json"); err == nil || !strings.Contains(err.Error(), "kubeplan never lets kustomize or helm reach the network") {
		t.Fatalf("helm's loader: err = %v, want the request refused by kubeplan's guard", err)
	}
	if n := conns.Load(); n != 0 {
		t.Fatalf("the listener saw %d connection(s) from helm code; want none", n)
	}

	resp, err := http.Get(url + "/schema.json")
	if err != nil {
		t.Fatalf("a request from code other than helm's: %v", err)
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	_ = resp.Body.Close()
	if n := conns.Load(); n != 1 {
		t.Fatalf("the listener saw %d connection(s) after a request of the test's own; want 1 (is it listening?)", n)
	}
}

// recordingServer listens on 127.0.0.1, answers every request with an
// empty JSON schema, and counts the connections made to it.
func recordingServer(t *testing.T) (url string, conns *atomic.Int64) {
	t.Helper()
	conns = &atomic.Int64{}
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		_, _ = io.WriteString(w, "{}")
	}))
	srv.Config.ConnState = func(_ net.Conn, s http.ConnState) {
		if s == http.StateNew {
			conns.Add(1)
		}
	}
	srv.Start()
	t.Cleanup(srv.Close)
	return srv.URL, conns
}
