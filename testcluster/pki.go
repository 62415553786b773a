package main

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
	"net"
	"os"
	"path/filepath"
	"time"
)

// File names of the PKI inside a cluster directory.
const (
	caCertFile  = "ca.crt"
	caKeyFile   = "ca.key"
	servingCert = "apiserver.crt"
	servingKey  = "apiserver.key"
	saKeyFile   = "sa.key"
	saPubFile   = "sa.pub"
	// The API server's client certificate for the node's kubelet API (container logs).
	kubeletClientCert = "apiserver-kubelet-client.crt"
	kubeletClientKey  = "apiserver-kubelet-client.key"
	certValidity      = 10 * 365 * 24 * time.Hour
	clockSkewSlack    = time.Hour
)

// authority is a CA that signs the serving and client certificates of one cluster.
type authority struct {
	cert *x509.Certificate
	key  crypto.Signer
}

// newKey makes a P-256 key: fast to generate and accepted everywhere in Kubernetes.
func newKey() (*ecdsa.PrivateKey, error) {
	return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
}

func serialNumber() (*big.Int, error) {
	return rand.Int(rand.Reader, new(big.Int).Lsh(big.NewInt(1), 127))
}

// newTemplate makes a key and the template of a certificate for it:
// subject, a random serial, valid from clockSkewSlack ago for
// certValidity, with usage. The caller adds what its kind needs.
func newTemplate(subject pkix.Name, usage x509.KeyUsage) (*ecdsa.PrivateKey, *x509.Certificate, error) {
	key, err := newKey()
	if err != nil {
		return nil, nil, err
	}
	serial, err := serialNumber()
	if err != nil {
		return nil, nil, err
	}
	now := time.Now()
	return key, &x509.Certificate{
		SerialNumber: serial,
		Subject:      subject,
		NotBefore:    now.Add(-clockSkewSlack),
		NotAfter:     now.Add(certValidity),
		KeyUsage:     usage,
	}, nil
}

// newAuthority makes a self-signed CA.
func newAuthority(name string) (*authority, error) {
	key, tmpl, err := newTemplate(pkix.Name{CommonName: name}, x509.KeyUsageCertSign|x509.KeyUsageDigitalSignature|x509.KeyUsageKeyEncipherment)
	if err != nil {
		return nil, err
	}
	tmpl.BasicConstraintsValid, tmpl.IsCA = true, true
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, key.Public(), key)
	if err != nil {
		return nil, err
	}
	cert, err := x509.ParseCertificate(der)
	if err != nil {
		return nil, err
	}
	return &authority{cert: cert, key: key}, nil
}

// issued is a certificate with its key, both PEM encoded.
type issued struct {
	certPEM []byte
	keyPEM  []byte
}

// sign issues a leaf certificate. With hosts it is a serving certificate, otherwise a client one.
func (a *authority) sign(cn string, orgs []string, hosts []string) (*issued, error) {
	key, tmpl, err := newTemplate(pkix.Name{CommonName: cn, Organization: orgs}, x509.KeyUsageDigitalSignature|x509.KeyUsageKeyEncipherment)
	if err != nil {
		return nil, err
	}
	tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}
	if len(hosts) > 0 {
		tmpl.ExtKeyUsage = []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth}
		for _, h := range hosts {
			if ip := net.ParseIP(h); ip != nil {
				tmpl.IPAddresses = append(tmpl.IPAddresses, ip)
			} else {
				tmpl.DNSNames = append(tmpl.DNSNames, h)
			}
		}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, a.cert, key.Public(), a.key)
	if err != nil {
		return nil, err
	}
	keyPEM, err := encodeKey(key)
	if err != nil {
		return nil, err
	}
	return &issued{certPEM: encodeCert(der), keyPEM: keyPEM}, nil
}

func encodeCert(der []byte) []byte {
	return pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
}

func encodeKey(key *ecdsa.PrivateKey) ([]byte, error) {
	der, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return nil, err
	}
	return pem.EncodeToMemory(&pem.Block{Type: "EC PRIVATE KEY", Bytes: der}), nil
}

// writePKI makes a fresh CA, the apiserver's serving certificate, its client
// certificate for the node's kubelet API and the service-account signing key pair in dir, replacing any earlier ones.
func writePKI(dir string) (*authority, error) {
	ca, err := newAuthority("testcluster-ca")
	if err != nil {
		return nil, fmt.Errorf("make CA: %w", err)
	}
	caKey, err := encodeKey(ca.key.(*ecdsa.PrivateKey))
	if err != nil {
		return nil, err
	}
	serving, err := ca.sign("kube-apiserver", nil, []string{
		"127.0.0.1", "::1", "localhost", serviceIP,
		"kubernetes", "kubernetes.default", "kubernetes.default.svc", "kubernetes.default.svc.cluster.local",
	})
	if err != nil {
		return nil, fmt.Errorf("make serving certificate: %w", err)
	}
	kubeletClient, err := ca.sign(kubeletClientCN, nil, nil)
	if err != nil {
		return nil, fmt.Errorf("make kubelet client certificate: %w", err)
	}
	saKey, err := newKey()
	if err != nil {
		return nil, err
	}
	saKeyPEM, err := encodeKey(saKey)
	if err != nil {
		return nil, err
	}
	saPubDER, err := x509.MarshalPKIXPublicKey(saKey.Public())
	if err != nil {
		return nil, err
	}
	files := []struct {
		name string
		data []byte
	}{
		{caCertFile, encodeCert(ca.cert.Raw)},
		{caKeyFile, caKey},
		{servingCert, serving.certPEM},
		{servingKey, serving.keyPEM},
		{kubeletClientCert, kubeletClient.certPEM},
		{kubeletClientKey, kubeletClient.keyPEM},
		{saKeyFile, saKeyPEM},
		{saPubFile, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: saPubDER})},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.name), f.data, 0o600); err != nil {
			return nil, err
		}
	}
	return ca, nil
}

// loadAuthority reads the CA that writePKI left in dir.
func loadAuthority(dir string) (*authority, error) {
	certPEM, err := os.ReadFile(filepath.Join(dir, caCertFile))
	if err != nil {
		return nil, fmt.Errorf("read CA certificate (was `testcluster start --dir %s` run?): %w", dir, err)
	}
	keyPEM, err := os.ReadFile(filepath.Join(dir, caKeyFile))
	if err != nil {
		return nil, fmt.Errorf("read CA key: %w", err)
	}
	cb, _ := pem.Decode(certPEM)
	kb, _ := pem.Decode(keyPEM)
	if cb == nil || kb == nil {
		return nil, errors.New("CA files in " + dir + " are not PEM")
	}
	cert, err := x509.ParseCertificate(cb.Bytes)
	if err != nil {
		return nil, fmt.Errorf("parse CA certificate: %w", err)
	}
	key, err := x509.ParseECPrivateKey(kb.Bytes)
	if err != nil {
		return nil, fmt.Errorf("parse CA key: %w", err)
	}
	return &authority{cert: cert, key: key}, nil
}
