package main

import (
	"os"

	"github.com/kubeplan/kubeplan/internal/interrupt"
	"github.com/kubeplan/kubeplan/internal/term"
)

func main() {
	stderr := os.Stderr
	// Libraries that print to os.Stderr themselves (kustomize's deprecation
	// lines) are silenced: kubeplan reports what they say as findings, and
	// everything it prints goes through the streams. A crash still reaches
	// file descriptor 2.
	if null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0); err == nil {
		os.Stderr = null
	}
	os.Exit(Main(os.Args[1:], streams{in: os.Stdin, out: os.Stdout, err: stderr, getenv: os.Getenv,
		terminal: term.IsTerminal(os.Stdin), errTerminal: term.IsTerminal(stderr), sig: interrupt.New(stderr)}))
}
