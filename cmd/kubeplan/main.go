// Command kubeplan brings the Terraform workflow to Kubernetes manifests kept
// in git: lint, plan, apply, status. This package only wires flags to the
// engine packages (lint, plan, apply) and their data to the views (render,
// render/ghview); see ARCHITECTURE.md.
package main

import (
	"os"

	"github.com/kubeplan/kubeplan/internal/term"
)

func main() {
	os.Exit(Main(os.Args[1:], streams{in: os.Stdin, out: os.Stdout, err: os.Stderr, getenv: os.Getenv,
		terminal: term.IsTerminal(os.Stdin), errTerminal: term.IsTerminal(os.Stderr)}))
}
