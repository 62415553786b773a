package render

import (
	"fmt"
	"io"
)

// ServeListening is the line kubeplan serve prints once its HTTP server
// (/metrics, /healthz, /readyz) listens on addr.
func ServeListening(w io.Writer, addr fmt.Stringer) {
	fmt.Fprintf(w, "kubeplan serve: listening on %s\n", addr)
}
