package main

import (
	"crypto/tls"
	"crypto/x509"
	"os"
	"path/filepath"
	"testing"

	"k8s.io/client-go/tools/clientcmd"
)

func TestPKIAndUserKubeconfig(t *testing.T) {
	dir := t.TempDir()
	ca, err := writePKI(dir)
	if err != nil {
		t.Fatal(err)
	}
	serving, err := tls.LoadX509KeyPair(filepath.Join(dir, servingCert), filepath.Join(dir, servingKey))
	if err != nil {
		t.Fatal(err)
	}
	leaf, err := x509.ParseCertificate(serving.Certificate[0])
	if err != nil {
		t.Fatal(err)
	}
	roots := x509.NewCertPool()
	roots.AddCert(ca.cert)
	for _, host := range []string{"127.0.0.1", "localhost", "kubernetes.default.svc"} {
		if _, err := leaf.Verify(x509.VerifyOptions{DNSName: host, Roots: roots}); err != nil {
			t.Errorf("serving certificate for %s: %v", host, err)
		}
	}

	loaded, err := loadAuthority(dir)
	if err != nil {
		t.Fatal(err)
	}
	admin := filepath.Join(dir, adminKubeconfig)
	if err := writeKubeconfig(admin, "https://127.0.0.1:1", loaded, "kubernetes-admin", []string{"system:masters"}); err != nil {
		t.Fatal(err)
	}
	o, err := parseUser([]string{"--dir", dir, "--name", "gitops-reconciler", "--group", "a", "--group", "b"}, os.Stderr)
	if err != nil {
		t.Fatal(err)
	}
	if err := runUser(o, os.Stderr); err != nil {
		t.Fatal(err)
	}
	cfg, err := clientcmd.LoadFromFile(filepath.Join(dir, "gitops-reconciler.kubeconfig"))
	if err != nil {
		t.Fatal(err)
	}
	if got := cfg.Clusters[contextName].Server; got != "https://127.0.0.1:1" {
		t.Errorf("server %q", got)
	}
	pair, err := tls.X509KeyPair(cfg.AuthInfos["gitops-reconciler"].ClientCertificateData, cfg.AuthInfos["gitops-reconciler"].ClientKeyData)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(pair.Certificate[0])
	if cert.Subject.CommonName != "gitops-reconciler" || len(cert.Subject.Organization) != 2 {
		t.Errorf("subject %v, want CN=gitops-reconciler O=a,b", cert.Subject)
	}
	if _, err := cert.Verify(x509.VerifyOptions{Roots: roots, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		t.Errorf("client certificate: %v", err)
	}
}

func TestUserFlags(t *testing.T) {
	for _, args := range [][]string{
		{"--name", "x"},
		{"--dir", "d"},
		{"--dir", "d", "--name", "../x"},
		{"--dir", "d", "--name", "admin"},
		{"--dir", "d", "--name", "x", "--group", ""},
		{"--dir", "d", "--name", "x", "extra"},
	} {
		if _, err := parseUser(args, discard{}); err == nil {
			t.Errorf("parseUser(%q) accepted", args)
		}
	}
}

type discard struct{}

func (discard) Write(p []byte) (int, error) { return len(p), nil }
