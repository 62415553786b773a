package netguard

import (
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"
	"sync"
)

// ErrRefused is the error of a request kustomize or helm code made
// through Go's default HTTP transport: kubeplan never lets them reach the
// network (see guard).
var ErrRefused = errors.New("kubeplan never lets kustomize or helm reach the network")

// guard is http.DefaultTransport while kubeplan runs. kustomize fetches
// an http(s) file with a client of its own on Go's default transport, and
// gives no way to replace that client; kubeplan refuses such files before
// the build (manifest/kustomize: findRemote, findRemotePlugin), and this
// transport makes the fetch impossible even for a URL those checks cannot
// see (a plugin config that a kustomization generates or patches): a
// request whose caller is kustomize or helm code fails at once, without a
// connection. Every other
// request (git sources, the GitHub API, notifications) goes to the
// transport Go made.
type guard struct{ next http.RoundTripper }

// Refused is a refused request: which library asked (Lib, "kustomize" or
// "helm") for which URL (with any password redacted).
type Refused struct {
	Lib, URL string
}

func (e *Refused) Error() string {
	return fmt.Sprintf("%s asked for %s: %s", e.Lib, e.URL, ErrRefused)
}

// Unwrap makes a Refused an ErrRefused.
func (e *Refused) Unwrap() error { return ErrRefused }

// install makes Install swap the transport once.
var install sync.Once

// Install makes the guard Go's default HTTP transport, once however often
// it is called. Call it from the init of a package that runs kustomize or
// helm code: the guard is then in place before main runs, so no request
// races with the swap, and it is installed after every package that
// package imports has run its own init (k8s.io/apimachinery reads
// http.DefaultTransport as an *http.Transport in one), which an init of
// this leaf package could not promise.
func Install() {
	install.Do(func() {
		http.DefaultTransport = guard{next: http.DefaultTransport}
	})
}

// RoundTrip refuses a request from kustomize or helm code.
func (g guard) RoundTrip(r *http.Request) (*http.Response, error) {
	if lib := offlineCaller(); lib != "" {
		if r.Body != nil {
			_ = r.Body.Close()
		}
		return nil, &Refused{Lib: lib, URL: r.URL.Redacted()}
	}
	return g.next.RoundTrip(r)
}

// offlineLibs are the packages that must never reach the network, by the
// prefix of their functions' names.
var offlineLibs = []struct{ prefix, name string }{
	{"sigs.k8s.io/kustomize/", "kustomize"},
	{"helm.sh/helm/", "helm"},
}

// offlineCaller names the offline library on the calling goroutine's
// stack, "" when there is none. http.Client calls RoundTrip on the
// goroutine that made the request, so that library's frames are there.
func offlineCaller() string {
	pcs := make([]uintptr, 128)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	for {
		f, more := frames.Next()
		for _, l := range offlineLibs {
			if strings.HasPrefix(f.Function, l.prefix) {
				return l.name
			}
		}
		if !more {
			return ""
		}
	}
}
