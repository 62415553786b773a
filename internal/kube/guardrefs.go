package kube

import (
	"fmt"
	"path/filepath"
	"sort"
	"strings"

	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"
)

// credentialRefs says what of cfg runs a command or reads a file, ""
// when nothing does.
func credentialRefs(cfg *clientcmdapi.Config) string {
	for _, name := range sortedKeys(cfg.AuthInfos) {
		a := cfg.AuthInfos[name]
		switch {
		case a == nil:
		case a.Exec != nil:
			return fmt.Sprintf("its user %q has an exec plugin", name)
		case a.AuthProvider != nil:
			return fmt.Sprintf("its user %q has an auth-provider", name)
		case a.TokenFile != "":
			return fmt.Sprintf("its user %q has a tokenFile", name)
		case a.ClientCertificate != "" || a.ClientKey != "":
			return fmt.Sprintf("its user %q names a client certificate or key file", name)
		}
	}
	for _, name := range sortedKeys(cfg.Clusters) {
		if c := cfg.Clusters[name]; c != nil && c.CertificateAuthority != "" {
			return fmt.Sprintf("its cluster %q names a certificate-authority file", name)
		}
	}
	return ""
}

type fileRef struct{ what, path string }

// fileRefs are the files cfg names, resolved as client-go resolves them
// (relative to the kubeconfig's directory), and an exec command given
// by path.
func fileRefs(cfg *clientcmdapi.Config, dir string) []fileRef {
	var out []fileRef
	add := func(what, p string) {
		if p == "" {
			return
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		if r, err := realPath(p); err == nil {
			p = r
		}
		out = append(out, fileRef{what, filepath.Clean(p)})
	}
	for _, name := range sortedKeys(cfg.AuthInfos) {
		a := cfg.AuthInfos[name]
		if a == nil {
			continue
		}
		add(fmt.Sprintf("user %q tokenFile", name), a.TokenFile)
		add(fmt.Sprintf("user %q client-certificate", name), a.ClientCertificate)
		add(fmt.Sprintf("user %q client-key", name), a.ClientKey)
		if a.Exec != nil && strings.ContainsRune(a.Exec.Command, filepath.Separator) {
			add(fmt.Sprintf("user %q exec command", name), a.Exec.Command)
		}
	}
	for _, name := range sortedKeys(cfg.Clusters) {
		if c := cfg.Clusters[name]; c != nil {
			add(fmt.Sprintf("cluster %q certificate-authority", name), c.CertificateAuthority)
		}
	}
	return out
}

func sortedKeys[V any](m map[string]V) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}
