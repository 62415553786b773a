package quiet

import (
	"io"
	"log"
	"os"

	"github.com/go-logr/logr"
	"k8s.io/klog/v2"
)

// Logs silences the loggers libraries write through. client-go logs
// through klog (discovery cache misses, throttling): kubeplan reports
// every error itself, once. Nothing of kubeplan's logs through the
// standard logger; a library's line there would only repeat what kubeplan
// reports.
func Logs() {
	klog.SetLogger(logr.Discard())
	log.SetOutput(io.Discard)
}

// Stderr points os.Stderr at the null device and returns the process's
// real stderr, for kubeplan's own output. Libraries that print to
// os.Stderr themselves (kustomize's deprecation lines) are silenced:
// kubeplan reports what they say as findings. A crash still reaches file
// descriptor 2. If the null device cannot be opened, os.Stderr is left
// as it is.
func Stderr() *os.File {
	stderr := os.Stderr
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		os.Stderr = null
	}
	return stderr
}
