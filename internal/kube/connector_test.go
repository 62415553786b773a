package kube

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const twoContexts = `apiVersion: v1
kind: Config
current-context: main
clusters:
- name: a
  cluster: {server: "https://127.0.0.1:1"}
- name: b
  cluster: {server: "https://127.0.0.1:2"}
users:
- name: u
  user: {token: t}
contexts:
- name: main
  context: {cluster: a, user: u, namespace: shop}
- name: other
  context: {cluster: b, user: u}
`

// A project naming no cluster gets the command line's kubeconfig and is
// labelled by its context; one naming a mapped cluster gets that
// cluster's context and is labelled by its name; an unmapped name is
// refused, labelled by its name, with where kubeplan.yaml sets it.
func TestConnectorConnect(t *testing.T) {
	kc := filepath.Join(t.TempDir(), "kubeconfig")
	if err := os.WriteFile(kc, []byte(twoContexts), 0o600); err != nil {
		t.Fatal(err)
	}
	base := Flags()
	base.KubeConfig = &kc
	c := Connector{Base: base, Clusters: Clusters{"prod": {Context: "other"}}}

	cl, label, err := c.Connect("", "")
	if err != nil || label != "main" || cl.Config.Host != "https://127.0.0.1:1" || cl.Namespace != "shop" {
		t.Fatalf("no cluster named: %v label %q host %q", err, label, hostOf(cl))
	}
	cl, label, err = c.Connect("prod", "kubeplan.yaml:3:12")
	if err != nil || label != "prod" || cl.Config.Host != "https://127.0.0.1:2" {
		t.Fatalf("prod: %v label %q host %q", err, label, hostOf(cl))
	}
	cl, label, err = c.Connect("admin", "kubeplan.yaml:9:12")
	var nm *NotMappedError
	if !errors.As(err, &nm) || nm.At != "kubeplan.yaml:9:12" || label != "admin" || cl != nil {
		t.Fatalf("unmapped: %v label %q", err, label)
	}
}

// A kubeconfig the command line names inside a checkout is checked
// before it is read (CheckKubeconfigs): the Connector passes its
// Checkouts on.
func TestConnectorChecksKubeconfig(t *testing.T) {
	root := t.TempDir()
	if err := os.Mkdir(filepath.Join(root, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	kc := filepath.Join(root, "kubeconfig")
	withFile := strings.Replace(twoContexts, "user: {token: t}", "user: {tokenFile: /etc/hostname}", 1)
	if err := os.WriteFile(kc, []byte(withFile), 0o600); err != nil {
		t.Fatal(err)
	}
	base := Flags()
	base.KubeConfig = &kc
	if _, _, err := (Connector{Base: base}).Connect("", ""); err != nil {
		t.Fatalf("without checkouts: %v", err)
	}
	if _, _, err := (Connector{Base: base, Checkouts: []string{root}}).Connect("", ""); err == nil {
		t.Fatal("a kubeconfig inside the checkout naming a token file was read")
	}
}

func hostOf(c *Client) string {
	if c == nil {
		return ""
	}
	return c.Config.Host
}
