package main

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	v1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/klog/v2"
)

// kubeletClientCN is the identity the API server presents to the node
// (--kubelet-client-certificate); the node serves nobody else.
const kubeletClientCN = "kube-apiserver-kubelet-client"

// logServer is the node's kubelet API as far as the API server's pods/log
// subresource needs it: GET /containerLogs/NS/POD/CONTAINER over TLS with a
// client certificate of the cluster's CA for kubeletClientCN.
type logServer struct {
	client kubernetes.Interface
	reader objectReader
}

// serveLogs serves the node's kubelet API on listener (TLS with a serving
// certificate of ca for the node's address) until ctx ends.
func serveLogs(ctx context.Context, listener net.Listener, ca *authority, client kubernetes.Interface) error {
	serving, err := ca.sign(nodeName, nil, []string{nodeIP, nodeName})
	if err != nil {
		return fmt.Errorf("kubelet serving certificate: %w", err)
	}
	cert, err := tls.X509KeyPair(serving.certPEM, serving.keyPEM)
	if err != nil {
		return fmt.Errorf("kubelet serving certificate: %w", err)
	}
	pool := x509.NewCertPool()
	pool.AddCert(ca.cert)
	srv := &http.Server{
		Handler:           &logServer{client: client, reader: apiReader{client}},
		ReadHeaderTimeout: 10 * time.Second,
		TLSConfig: &tls.Config{
			Certificates: []tls.Certificate{cert},
			ClientAuth:   tls.RequireAndVerifyClientCert,
			ClientCAs:    pool,
			MinVersion:   tls.VersionTLS12,
		},
	}
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		_ = srv.Shutdown(shutdown)
	}()
	if err := srv.ServeTLS(listener, "", ""); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// logRequest is a parsed GET /containerLogs request.
type logRequest struct {
	ns, pod, container string
	previous           bool
	timestamps         bool
	tailLines          int64 // -1: all
	limitBytes         int64 // -1: no limit
}

func parseLogRequest(r *http.Request) (*logRequest, int, error) {
	rest, ok := strings.CutPrefix(r.URL.Path, "/containerLogs/")
	parts := strings.Split(rest, "/")
	if !ok || len(parts) != 3 || parts[0] == "" || parts[1] == "" || parts[2] == "" {
		return nil, http.StatusNotFound, errors.New("not found: the simulated node serves only /containerLogs/NAMESPACE/POD/CONTAINER")
	}
	q := r.URL.Query()
	lr := &logRequest{ns: parts[0], pod: parts[1], container: parts[2], tailLines: -1, limitBytes: -1,
		previous: q.Get("previous") == "true", timestamps: q.Get("timestamps") == "true"}
	for name, dst := range map[string]*int64{"tailLines": &lr.tailLines, "limitBytes": &lr.limitBytes} {
		if v := q.Get(name); v != "" {
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil || n < 0 {
				return nil, http.StatusBadRequest, fmt.Errorf("%s=%q: want a number >= 0", name, v)
			}
			*dst = n
		}
	}
	return lr, 0, nil
}

func (s *logServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	// Errors are plain text without a newline, as the kubelet writes them; the
	// API server turns a 400 into a BadRequest with this message.
	fail := func(code int, err error) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Header().Set("X-Content-Type-Options", "nosniff")
		w.WriteHeader(code)
		_, _ = io.WriteString(w, err.Error())
	}
	if r.TLS == nil || len(r.TLS.PeerCertificates) == 0 || r.TLS.PeerCertificates[0].Subject.CommonName != kubeletClientCN {
		fail(http.StatusForbidden, errors.New("forbidden: only the API server may use the node's API"))
		return
	}
	if r.Method != http.MethodGet {
		fail(http.StatusMethodNotAllowed, errors.New("method not allowed"))
		return
	}
	lr, code, err := parseLogRequest(r)
	if err != nil {
		fail(code, err)
		return
	}
	body, code, err := s.logs(r.Context(), lr)
	if err != nil {
		fail(code, err)
		return
	}
	w.Header().Set("Content-Type", "text/plain")
	_, _ = w.Write(body)
}

// logs is the body the kubelet would send for lr, or an HTTP code and error.
func (s *logServer) logs(ctx context.Context, lr *logRequest) ([]byte, int, error) {
	pod, err := s.client.CoreV1().Pods(lr.ns).Get(ctx, lr.pod, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil, http.StatusNotFound, fmt.Errorf("pod %q not found", lr.ns+"/"+lr.pod)
	}
	if err != nil {
		return nil, http.StatusInternalServerError, err
	}
	c, cs := findContainer(pod, lr.container)
	if c == nil {
		return nil, http.StatusNotFound, fmt.Errorf("container %q not found in pod %q", lr.container, lr.pod)
	}
	started, err := logInstance(cs, lr.container, lr.pod, lr.previous)
	if err != nil {
		return nil, http.StatusBadRequest, err
	}
	env, err := containerEnv(ctx, s.reader, pod, *c)
	if err != nil {
		klog.FromContext(ctx).V(2).Info("simulated node: container environment for logs", "pod", klog.KObj(pod), "err", err)
		return nil, http.StatusInternalServerError, fmt.Errorf("container %q in pod %q: cannot build its environment", lr.container, lr.pod)
	}
	return renderLog(containerLog(*c, env), started, lr), 0, nil
}

// findContainer returns the spec and the status (nil before it has one) of a pod's container.
func findContainer(pod *v1.Pod, name string) (*v1.Container, *v1.ContainerStatus) {
	for i := range pod.Spec.InitContainers {
		if pod.Spec.InitContainers[i].Name == name {
			return &pod.Spec.InitContainers[i], findStatus(pod.Status.InitContainerStatuses, name)
		}
	}
	for i := range pod.Spec.Containers {
		if pod.Spec.Containers[i].Name == name {
			return &pod.Spec.Containers[i], findStatus(pod.Status.ContainerStatuses, name)
		}
	}
	return nil, nil
}

// logInstance picks the run of a container whose log is asked for and returns
// when it started, with the kubelet's errors for a container without one.
func logInstance(cs *v1.ContainerStatus, container, pod string, previous bool) (time.Time, error) {
	if cs == nil {
		return time.Time{}, fmt.Errorf("container %q in pod %q is not available", container, pod)
	}
	last := cs.LastTerminationState.Terminated
	switch {
	case previous:
		if last == nil || last.ContainerID == "" {
			return time.Time{}, fmt.Errorf("previous terminated container %q in pod %q not found", container, pod)
		}
		return last.StartedAt.Time, nil
	case cs.State.Running != nil:
		return cs.State.Running.StartedAt.Time, nil
	case cs.State.Terminated != nil:
		return cs.State.Terminated.StartedAt.Time, nil
	case last != nil:
		return last.StartedAt.Time, nil
	case cs.State.Waiting != nil:
		switch reason := cs.State.Waiting.Reason; reason {
		case "ErrImagePull":
			return time.Time{}, fmt.Errorf("container %q in pod %q is waiting to start: image can't be pulled", container, pod)
		case "ImagePullBackOff":
			return time.Time{}, fmt.Errorf("container %q in pod %q is waiting to start: trying and failing to pull image", container, pod)
		default:
			return time.Time{}, fmt.Errorf("container %q in pod %q is waiting to start: %s", container, pod, reason)
		}
	}
	return time.Time{}, fmt.Errorf("container %q in pod %q is not available", container, pod)
}

// renderLog writes lines as the kubelet streams a log: the last tailLines,
// each with its timestamp when asked, cut at limitBytes.
func renderLog(lines []string, started time.Time, lr *logRequest) []byte {
	if lr.tailLines >= 0 && int64(len(lines)) > lr.tailLines {
		lines = lines[int64(len(lines))-lr.tailLines:]
	}
	var b strings.Builder
	for _, line := range lines {
		if lr.timestamps {
			b.WriteString(started.UTC().Format(time.RFC3339Nano) + " ")
		}
		b.WriteString(line + "\n")
	}
	out := []byte(b.String())
	if lr.limitBytes >= 0 && int64(len(out)) > lr.limitBytes {
		out = out[:lr.limitBytes]
	}
	return out
}
