package kustomize

import (
	"bytes"
	"errors"
	"fmt"
	"net/http"
	"runtime"
	"strings"

	"github.com/kubeplan/kubeplan/manifest"
)

// ErrNetworkRefused is the error of a request kustomize or helm code made
// through Go's default HTTP transport: kubeplan never lets them reach the
// network (see netGuard).
var ErrNetworkRefused = errors.New("kubeplan never lets kustomize or helm reach the network")

// netGuard is http.DefaultTransport while kubeplan runs. kustomize fetches
// an http(s) file with a client of its own on Go's default transport, and
// gives no way to replace that client; kubeplan refuses such files before
// the build (findRemote, findRemotePlugin), and this transport makes the
// fetch impossible even for a URL those checks cannot see (a plugin config
// that a kustomization generates or patches): a request whose caller is
// kustomize or helm code fails at once, without a connection. Every other
// request (git sources, the GitHub API, notifications) goes to the
// transport Go made.
type netGuard struct{ next http.RoundTripper }

// networkRefused is a refused request.
type networkRefused struct {
	lib, url string
}

func (e *networkRefused) Error() string {
	return fmt.Sprintf("%s asked for %s: %s", e.lib, e.url, ErrNetworkRefused)
}

func (e *networkRefused) Unwrap() error { return ErrNetworkRefused }

func init() {
	// Installed before main runs, so no request races with the swap.
	http.DefaultTransport = netGuard{next: http.DefaultTransport}
}

// RoundTrip refuses a request from kustomize or helm code.
func (g netGuard) RoundTrip(r *http.Request) (*http.Response, error) {
	if lib := offlineCaller(); lib != "" {
		if r.Body != nil {
			_ = r.Body.Close()
		}
		return nil, &networkRefused{lib: lib, url: r.URL.Redacted()}
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

// urlFile is a file a build read that holds "://", kept to find where a
// refused URL came from.
type urlFile struct {
	path string // as shown
	data []byte
}

// withURL keeps a file read (path as kustomize named it) that holds a URL.
func (f *rootFS) withURL(path string, data []byte) {
	if bytes.Contains(data, []byte("://")) {
		f.urlFiles = append(f.urlFiles, urlFile{f.display(path), data})
	}
}

// networkProblem reports a request netGuard refused during the build:
// at the place in a file the build read that names the URL, else at the
// kustomization. False when err is not such a refusal.
func (f *rootFS) networkProblem(kfile string, err error) (*manifest.Problem, bool) {
	var nr *networkRefused
	if !errors.As(err, &nr) {
		return nil, false
	}
	msg := fmt.Sprintf("kustomize tried to fetch %s: kubeplan never lets kustomize reach the network; vendor the file into the repository and name it by its path", nr.url)
	files := f.urlFiles
	for _, k := range f.kustomizations {
		files = append(files, urlFile{k.File, k.Data})
	}
	for _, u := range files {
		if i := bytes.Index(u.data, []byte(nr.url)); i >= 0 {
			before := u.data[:i]
			line := bytes.Count(before, []byte("\n")) + 1
			col := i - (bytes.LastIndexByte(before, '\n') + 1) + 1
			return &manifest.Problem{File: u.path, Pos: manifest.Pos{Line: line, Col: col}, Rule: "kustomize", Message: msg}, true
		}
	}
	return &manifest.Problem{File: kfile, Pos: manifest.Pos{Line: 1, Col: 1}, Rule: "kustomize", Message: msg}, true
}
