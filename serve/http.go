package serve

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync/atomic"
	"time"

	"github.com/prometheus/client_golang/prometheus/promhttp"
)

// readyPingTimeout bounds /readyz's request to the cluster.
const readyPingTimeout = 5 * time.Second

// health is what /readyz answers from.
type health struct {
	fetched atomic.Bool // the first fetch succeeded
	cls     *clusters
}

// ready is nil once the first fetch is done and every cluster connected
// so far answers.
func (h *health) ready(ctx context.Context) error {
	if !h.fetched.Load() {
		return errors.New("the git source has not been fetched yet")
	}
	cs := h.cls.all()
	if len(cs) == 0 {
		return errors.New("no cluster connected yet")
	}
	ctx, cancel := context.WithTimeout(ctx, readyPingTimeout)
	defer cancel()
	for _, c := range cs {
		if err := c.Ping(ctx); err != nil {
			return err
		}
	}
	return nil
}

// server serves /metrics, /healthz (the process answers) and /readyz.
func newHTTPServer(m *metrics, h *health) *http.Server {
	mux := http.NewServeMux()
	mux.Handle("GET /metrics", promhttp.HandlerFor(m.reg, promhttp.HandlerOpts{Registry: m.reg}))
	mux.HandleFunc("GET /healthz", func(w http.ResponseWriter, _ *http.Request) {
		_, _ = w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("GET /readyz", func(w http.ResponseWriter, r *http.Request) {
		if err := h.ready(r.Context()); err != nil {
			http.Error(w, "not ready: "+err.Error(), http.StatusServiceUnavailable)
			return
		}
		_, _ = w.Write([]byte("ok\n"))
	})
	return &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
}

// listen starts srv on addr; the listener is bound before it returns, so
// a bad address is an error of Run, not of a goroutine.
func listen(srv *http.Server, addr string, errs chan<- error) (net.Addr, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, err
	}
	go func() {
		if err := srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			errs <- fmt.Errorf("serving %s: %w", ln.Addr(), err)
		}
	}()
	return ln.Addr(), nil
}
