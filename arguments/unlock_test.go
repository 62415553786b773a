package arguments

import (
	"testing"

	"github.com/spf13/pflag"
)

// unlock takes kubectl's connection flags and --applyset.
func TestUnlockBind(t *testing.T) {
	f := &Unlock{}
	fl := pflag.NewFlagSet("unlock", pflag.ContinueOnError)
	f.Bind(fl)
	if err := fl.Parse([]string{"-n", "store", "--applyset", "configmap/gitops-applyset", "--kubeconfig", "/etc/kubeplan/kubeconfig"}); err != nil {
		t.Fatal(err)
	}
	if f.ApplySet != "configmap/gitops-applyset" || deref(f.Kube.Namespace) != "store" || deref(f.Kube.KubeConfig) != "/etc/kubeplan/kubeconfig" {
		t.Errorf("applyset %q, namespace %q, kubeconfig %q", f.ApplySet, deref(f.Kube.Namespace), deref(f.Kube.KubeConfig))
	}
}
