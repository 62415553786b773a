package main

import (
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	v1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"
)

func TestLogServer(t *testing.T) {
	started := metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC))
	pod := &v1.Pod{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "ns"},
		Spec: v1.PodSpec{Containers: []v1.Container{{
			Name: "main", Image: "app:v1", Command: []string{"/app"}, Args: []string{"--token=$(TOKEN)"},
			Env: []v1.EnvVar{{Name: "TOKEN", ValueFrom: &v1.EnvVarSource{SecretKeyRef: &v1.SecretKeySelector{
				LocalObjectReference: v1.LocalObjectReference{Name: "app"}, Key: "token"}}}},
		}}},
		Status: v1.PodStatus{ContainerStatuses: []v1.ContainerStatus{{
			Name: "main", State: v1.ContainerState{Running: &v1.ContainerStateRunning{StartedAt: started}},
		}}},
	}
	secret := &v1.Secret{ObjectMeta: metav1.ObjectMeta{Name: "app", Namespace: "ns"}, Data: map[string][]byte{"token": []byte("t0ken")}}
	client := fake.NewClientset(pod, secret)
	s := &logServer{client: client, reader: apiReader{client}}
	peer := func(cn string) *tls.ConnectionState {
		return &tls.ConnectionState{PeerCertificates: []*x509.Certificate{{Subject: pkix.Name{CommonName: cn}}}}
	}
	for _, tc := range []struct {
		name, method, target string
		tls                  *tls.ConnectionState
		code                 int
		body                 string
	}{
		{"without TLS", "GET", "/containerLogs/ns/web/main", nil, 403, "forbidden: only the API server may use the node's API"},
		{"another user", "GET", "/containerLogs/ns/web/main", peer("intruder"), 403, "forbidden: only the API server may use the node's API"},
		{"the API server", "GET", "/containerLogs/ns/web/main", peer(kubeletClientCN), 200, "/app\n--token=t0ken\n"},
		{"timestamps, tail", "GET", "/containerLogs/ns/web/main?timestamps=true&tailLines=1", peer(kubeletClientCN), 200, "2026-01-02T03:04:05Z --token=t0ken\n"},
		{"limitBytes", "GET", "/containerLogs/ns/web/main?limitBytes=3", peer(kubeletClientCN), 200, "/ap"},
		{"previous of a first run", "GET", "/containerLogs/ns/web/main?previous=true", peer(kubeletClientCN), 400, `previous terminated container "main" in pod "web" not found`},
		{"bad tailLines", "GET", "/containerLogs/ns/web/main?tailLines=-1", peer(kubeletClientCN), 400, `tailLines="-1": want a number >= 0`},
		{"unknown pod", "GET", "/containerLogs/ns/nope/main", peer(kubeletClientCN), 404, `pod "ns/nope" not found`},
		{"unknown container", "GET", "/containerLogs/ns/web/side", peer(kubeletClientCN), 404, `container "side" not found in pod "web"`},
		{"other path", "GET", "/exec/ns/web/main", peer(kubeletClientCN), 404, "not found: the simulated node serves only /containerLogs/NAMESPACE/POD/CONTAINER"},
		{"POST", "POST", "/containerLogs/ns/web/main", peer(kubeletClientCN), 405, "method not allowed"},
	} {
		req := httptest.NewRequest(tc.method, tc.target, nil)
		req.TLS = tc.tls
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if rec.Code != tc.code || rec.Body.String() != tc.body {
			t.Errorf("%s: %d %q, want %d %q", tc.name, rec.Code, rec.Body.String(), tc.code, tc.body)
		}
		if tc.code != http.StatusOK && rec.Body.Len() > 0 && rec.Header().Get("Content-Type") != "text/plain; charset=utf-8" {
			t.Errorf("%s: content type %q", tc.name, rec.Header().Get("Content-Type"))
		}
	}
}
