package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/internal/term"
)

// Exit codes shared by every command.
const (
	exitOK       = 0 // success; for lint: no error-level finding
	exitFindings = 1 // lint found errors; plan/apply failed
	exitUsage    = 2 // the command could not run: bad flag, unreadable path, bad config
)

// streams are the command's input and outputs: data to out, logs to err.
type streams struct {
	in       io.Reader
	out, err io.Writer
}

// exitError carries an exit code through cobra without printing anything.
type exitError struct{ code int }

func (e exitError) Error() string { return fmt.Sprintf("exit %d", e.code) }

// usageError is an error that means the command could not run at all (bad
// flag, unreadable path, bad config): exit code 2.
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usage(err error) error {
	if err == nil {
		return nil
	}
	return usageError{err}
}

// Main runs kubeplan with args and returns the process exit code. Every
// error is printed once, here.
func Main(args []string, s streams) int {
	root := newRoot(s)
	started := false
	root.PersistentPreRun = func(*cobra.Command, []string) { started = true }
	root.SetArgs(args)
	err := root.Execute()
	if err == nil {
		return exitOK
	}
	var ee exitError
	if errors.As(err, &ee) {
		return ee.code
	}
	fmt.Fprintln(s.err, "kubeplan: "+err.Error())
	var ue usageError
	if !started || errors.As(err, &ue) {
		return exitUsage // flags or arguments were wrong, or the input unreadable
	}
	return exitFindings // the operation failed
}

func newRoot(s streams) *cobra.Command {
	root := &cobra.Command{
		Use:   "kubeplan",
		Short: "Lint, plan and apply Kubernetes manifests from git, the Terraform way",
		Long: `kubeplan keeps Kubernetes namespaces equal to what a git repository says:
lint before commit, plan on every pull request, apply on merge and on a schedule.

Exit codes: 0 success, 1 findings or failed operation, 2 the command could not run
(bad flag, unreadable path, bad config); plan --detailed-exitcode: 2 means changes.`,
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(s.in)
	root.SetOut(s.out)
	root.SetErr(s.err)
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		return fmt.Errorf("%w (see %s --help)", err, c.CommandPath())
	})
	root.AddCommand(newLintCmd(s), newPlanCmd(s), newApplyCmd(s), newStatusCmd(s), newVersionCmd(s))
	return root
}

// colorEnabled reports whether w is a terminal and NO_COLOR is unset.
func colorEnabled(w io.Writer) bool { return term.Color(w) }
