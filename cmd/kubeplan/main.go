package main

import (
	"os"

	"github.com/kubeplan/kubeplan/internal/interrupt"
	"github.com/kubeplan/kubeplan/internal/quiet"
	_ "github.com/kubeplan/kubeplan/internal/startgc" // no collection while kubeplan starts
	"github.com/kubeplan/kubeplan/internal/term"
)

func main() {
	stderr := quiet.Stderr() // what libraries print to os.Stderr themselves is silenced
	code := Main(os.Args[1:], streams{in: os.Stdin, out: os.Stdout, err: stderr, getenv: os.Getenv,
		terminal: term.IsTerminal(os.Stdin), errTerminal: term.IsTerminal(stderr), sig: interrupt.New(stderr)})
	stopProfile()
	os.Exit(code)
}

// stopProfile ends the CPU profile a -tags profile build writes (profile.go).
var stopProfile = func() {}
