// Command kubeplan brings the Terraform workflow to Kubernetes manifests kept
// in git: lint, plan, apply. This package only wires flags to the library
// packages and maps results to exit codes.
package main

import "os"

func main() {
	os.Exit(Main(os.Args[1:], streams{in: os.Stdin, out: os.Stdout, err: os.Stderr}))
}
