package render

import (
	"fmt"
	"io"

	"github.com/kubeplan/kubeplan/internal/config"
)

// LegacyNotice is the line (on stderr, or serve's log) that says the
// config read has its former name (.kubeplan.yaml).
func LegacyNotice(w io.Writer) {
	fmt.Fprintf(w, "kubeplan: %s is read for now; rename it to %s\n", config.LegacyFile, config.DefaultFile)
}
