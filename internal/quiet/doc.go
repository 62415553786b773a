// Package quiet silences what libraries print by themselves: client-go's
// klog lines, the standard logger, and anything written straight to
// os.Stderr (kustomize's deprecation lines). kubeplan reports every error
// and warning itself, once, through its own streams.
//
// It is a leaf: it imports no kubeplan package, and it never silences
// kubeplan's own output or a crash (file descriptor 2 stays open).
package quiet
