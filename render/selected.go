package render

import (
	"fmt"
	"io"
)

// NothingSelected is the line on stderr when a run over projects selected
// none (--changed-since with no change that affects one): verb had
// nothing to do, which is not an error.
func NothingSelected(w io.Writer, verb string) {
	fmt.Fprintf(w, "kubeplan: no project selected: nothing to %s\n", verb)
}
