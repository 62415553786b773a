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

// ServeMemory says how serve set the garbage collector (gctune), when it
// set anything.
func ServeMemory(w io.Writer, settings string) {
	if settings != "" {
		fmt.Fprintf(w, "kubeplan serve: memory: %s (set GOGC or GOMEMLIMIT to choose)\n", settings)
	}
}
