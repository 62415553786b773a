package main

import (
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/internal/ghactions"
	"github.com/kubeplan/kubeplan/internal/interrupt"
	"github.com/kubeplan/kubeplan/internal/quiet"
	"github.com/kubeplan/kubeplan/internal/term"
	"github.com/kubeplan/kubeplan/render"
)

// Exit codes, the same for every verb.
const (
	exitOK      = 0 // success, or no changes
	exitFailed  = 1 // any error: bad flag, unreadable path, unreachable cluster, lint findings, failed apply, a signal
	exitChanges = 2 // only with plan --detailed-exitcode or apply --drift=report: changes present
)

// streams are the command's input, outputs and environment: data to out,
// progress and errors to err. Nothing else of the process is read, so
// commands can run in parallel in tests.
type streams struct {
	in       io.Reader
	out, err io.Writer
	// getenv looks up the environment (os.Getenv when nil).
	getenv func(string) string
	// terminal says stdin is a terminal a person answers (apply asks
	// before writing); errTerminal that stderr is one (progress bars).
	terminal, errTerminal bool
	// sig stops the verbs that ask on SIGINT or SIGTERM (stopOnSignal);
	// nil in tests that run Main in-process.
	sig *interrupt.Stopper
}

// progress is the view of the engine's progress on stderr: a bar on a
// terminal, periodic lines elsewhere, nothing for phases under 2 s.
func (s streams) progress() *render.ProgressView { return render.Progress(s.err, s.errTerminal) }

func (s streams) env() ghactions.Env {
	if s.getenv == nil {
		return os.Getenv
	}
	return s.getenv
}

// color reports whether w may be coloured: a terminal, and NO_COLOR unset.
func (s streams) color(w io.Writer) bool { return term.ColorEnv(w, s.getenv) }

// githubMode reports whether kubeplan runs as a GitHub Actions step.
func (s streams) githubMode() bool { return s.env().InActions() }

// exitError carries an exit code through cobra without printing anything.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// Main runs kubeplan with args and returns the process exit code. Every
// error is printed once, here.
func Main(args []string, s streams) int {
	// Whatever is printed, a value decrypted from SOPS never is: the
	// streams hide every one (render.ScrubWriter).
	// In GitHub mode the Guards come first, on the process's own streams
	// (ghactions.SameStream compares those), and the scrubbing over them.
	s.out, s.err = s.env().Guarded(args, s.out, s.err)
	out, errw := render.NewScrubWriter(s.out), render.NewScrubWriter(s.err)
	s.out, s.err, s.in = out, errw, render.FlushingReader(s.in, out, errw)
	defer func() { _, _ = out.Flush(), errw.Flush() }()
	quiet.Logs() // kubeplan reports every error itself, once
	root := newRoot(s)
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	if s.sig.Stopped(err, errors.As(err, new(exitError))) {
		return exitFailed // a signal interrupted the run, whatever it would have said
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	fmt.Fprintln(s.err, "kubeplan: "+err.Error())
	return exitFailed
}

func newRoot(s streams) *cobra.Command {
	root := &cobra.Command{
		Use:           "kubeplan",
		Short:         "Lint, plan and apply Kubernetes manifests from git, the Terraform way",
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.in)
	root.SetOut(s.out)
	root.SetErr(s.err)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w (see %s --help)", err, c.CommandPath())
	})
	root.AddCommand(newLintCmd(s), newPlanCmd(s), newApplyCmd(s), newStatusCmd(s), newOrphansCmd(s), newUnlockCmd(s), newSuspendCmd(s), newResumeCmd(s), newSyncCmd(s), newProjectsCmd(s), newPolicyCmd(s), newCommentCmd(s), newServeCmd(s), newVersionCmd(s))
	root.AddCommand(newHealthCmd(s))
	showHelpLazily(root)
	return withHelp(root, "root", false)
}
