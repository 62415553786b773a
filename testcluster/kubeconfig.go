package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"

	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

const (
	adminKubeconfig   = "admin.kubeconfig"
	controllersConfig = "controller-manager.kubeconfig"
	contextName       = "testcluster"
)

// validName is what a user name may look like so that DIR/NAME.kubeconfig stays inside DIR.
var validName = regexp.MustCompile(`^[A-Za-z0-9][A-Za-z0-9._:@-]*$`)

// writeKubeconfig writes a kubeconfig at path for a client certificate of user cn in groups.
// The file is written to a temporary name first and renamed, so readers never see half of it.
func writeKubeconfig(path, server string, ca *authority, cn string, groups []string) error {
	client, err := ca.sign(cn, groups, nil)
	if err != nil {
		return fmt.Errorf("sign client certificate for %s: %w", cn, err)
	}
	cfg := clientcmdapi.NewConfig()
	cfg.Clusters[contextName] = &clientcmdapi.Cluster{
		Server:                   server,
		CertificateAuthorityData: encodeCert(ca.cert.Raw),
	}
	cfg.AuthInfos[cn] = &clientcmdapi.AuthInfo{
		ClientCertificateData: client.certPEM,
		ClientKeyData:         client.keyPEM,
	}
	cfg.Contexts[contextName] = &clientcmdapi.Context{Cluster: contextName, AuthInfo: cn, Namespace: "default"}
	cfg.CurrentContext = contextName
	data, err := clientcmd.Write(*cfg)
	if err != nil {
		return err
	}
	tmp := path + ".tmp"
	if err := os.WriteFile(tmp, data, 0o600); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}

// serverURL reads the API server address from DIR/admin.kubeconfig.
func serverURL(dir string) (string, error) {
	path := filepath.Join(dir, adminKubeconfig)
	cfg, err := clientcmd.LoadFromFile(path)
	if err != nil {
		return "", fmt.Errorf("read %s (is the cluster started and ready?): %w", path, err)
	}
	cluster, ok := cfg.Clusters[contextName]
	if !ok || cluster.Server == "" {
		return "", fmt.Errorf("%s has no cluster %q with a server", path, contextName)
	}
	return cluster.Server, nil
}
