package testkube

import (
	"bytes"
	"crypto/tls"
	"crypto/x509"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"time"

	"go.yaml.in/yaml/v3"
)

// kubeconfig is the part of a kubeconfig file written by testcluster that a
// client certificate connection needs.
type kubeconfig struct {
	Clusters []struct {
		Cluster struct {
			Server string `yaml:"server"`
			CA     string `yaml:"certificate-authority-data"`
		} `yaml:"cluster"`
	} `yaml:"clusters"`
	Users []struct {
		User struct {
			Cert string `yaml:"client-certificate-data"`
			Key  string `yaml:"client-key-data"`
		} `yaml:"user"`
	} `yaml:"users"`
}

// restClient calls the API server with the identity of a kubeconfig.
type restClient struct {
	server string
	http   *http.Client
}

func newRESTClient(path string) (*restClient, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var kc kubeconfig
	if err := yaml.Unmarshal(data, &kc); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(kc.Clusters) != 1 || len(kc.Users) != 1 {
		return nil, fmt.Errorf("%s: want one cluster and one user", path)
	}
	decode := func(s string) []byte { b, _ := base64.StdEncoding.DecodeString(s); return b }
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(decode(kc.Clusters[0].Cluster.CA)) {
		return nil, fmt.Errorf("%s: no CA certificate", path)
	}
	cert, err := tls.X509KeyPair(decode(kc.Users[0].User.Cert), decode(kc.Users[0].User.Key))
	if err != nil {
		return nil, fmt.Errorf("%s: client certificate: %w", path, err)
	}
	return &restClient{
		server: kc.Clusters[0].Cluster.Server,
		http: &http.Client{
			Timeout: 30 * time.Second,
			Transport: &http.Transport{TLSClientConfig: &tls.Config{
				RootCAs: pool, Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12,
			}},
		},
	}, nil
}

// do sends body (JSON-encoded unless nil) and fails unless the status is in ok.
func (r *restClient) do(method, path string, body any, ok ...int) error {
	var rd io.Reader
	if body != nil {
		b, err := json.Marshal(body)
		if err != nil {
			return err
		}
		rd = bytes.NewReader(b)
	}
	req, err := http.NewRequest(method, r.server+path, rd)
	if err != nil {
		return err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := r.http.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	msg, _ := io.ReadAll(io.LimitReader(resp.Body, 4<<10))
	for _, code := range ok {
		if resp.StatusCode == code {
			return nil
		}
	}
	return fmt.Errorf("%s %s: %s: %s", method, path, resp.Status, bytes.TrimSpace(msg))
}

// admin returns a REST client with the admin identity, made on first use.
func (c *Cluster) admin() (*restClient, error) {
	select {
	case <-c.exited:
		return nil, errStopped
	default:
	}
	c.restMu.Lock()
	defer c.restMu.Unlock()
	if c.rest == nil {
		r, err := newRESTClient(c.kubeconfig)
		if err != nil {
			return nil, err
		}
		c.rest = r
	}
	return c.rest, nil
}
