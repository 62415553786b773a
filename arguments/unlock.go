package arguments

import (
	"github.com/spf13/pflag"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/internal/kube"
)

// Unlock is unlock's command line: the connection (kubectl's flags) and
// the ApplySet whose lock to break.
type Unlock struct {
	Kube     *genericclioptions.ConfigFlags
	ApplySet string
}

// Bind adds unlock's flags; the command marks --applyset required.
func (f *Unlock) Bind(fl *pflag.FlagSet) {
	f.Kube = kube.Flags()
	f.Kube.AddFlags(fl)
	fl.StringVar(&f.ApplySet, "applyset", "", "the ApplySet, as configmap/NAME or secret/NAME (required)")
}
