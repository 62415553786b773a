package kube

import (
	"k8s.io/cli-runtime/pkg/genericclioptions"
)

// ForCluster returns flags like base (the command line's) for another
// cluster: a kubeconfig, when not "", replaces base's together with its
// context (the file's current context when context is ""); a context
// alone, when not "", replaces base's context in base's kubeconfig; and the
// cluster-specific overrides of the command line (--cluster, --user,
// --server, certificates, token) are dropped when the context changes,
// since they were meant for the command line's cluster. -n is dropped too:
// each project has its own namespace. A kubeconfig context name names the
// cluster in reports: ContextName resolves it.
func ForCluster(base *genericclioptions.ConfigFlags, kubeconfig, context string) *genericclioptions.ConfigFlags {
	f := Flags()
	f.CacheDir, f.KubeConfig, f.Context = base.CacheDir, base.KubeConfig, base.Context
	f.Impersonate, f.ImpersonateUID, f.ImpersonateGroup, f.ImpersonateUserExtra = base.Impersonate, base.ImpersonateUID, base.ImpersonateGroup, base.ImpersonateUserExtra
	f.Timeout, f.DisableCompression, f.ProxyURL = base.Timeout, base.DisableCompression, base.ProxyURL
	if kubeconfig != "" {
		f.KubeConfig = &kubeconfig
		f.Context = &context
	}
	if context != "" {
		f.Context = &context
	}
	if kubeconfig == "" && context == "" {
		f.ClusterName, f.AuthInfoName, f.APIServer, f.TLSServerName = base.ClusterName, base.AuthInfoName, base.APIServer, base.TLSServerName
		f.Insecure, f.CertFile, f.KeyFile, f.CAFile = base.Insecure, base.CertFile, base.KeyFile, base.CAFile
		f.BearerToken, f.Username, f.Password = base.BearerToken, base.Username, base.Password
	}
	return f
}

// ContextName is the kubeconfig context the flags select: --context, else
// the kubeconfig's current context ("" when there is none, as in a pod).
func ContextName(f *genericclioptions.ConfigFlags) string {
	if f.Context != nil && *f.Context != "" {
		return *f.Context
	}
	raw, err := f.ToRawKubeConfigLoader().RawConfig()
	if err != nil {
		return ""
	}
	return raw.CurrentContext
}
