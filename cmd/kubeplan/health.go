package main

import (
	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/internal/healthexpr/healthtest"
)

const healthTestHelp = `Run every kubeplan-health-test.yaml under DIR (default: the working directory), or the
one test file DIR names: objects with a status and the outcome their health rule in CEL
must give them (current, inProgress or failed), under the rules the file writes (rules:),
those of the kubeplan.yaml it names (config:), or the built-in rules.

Prints a line per case, ok or FAIL at the file:line:col of its expect:, and the counts.
Nothing outside the checkout is read.

Reference: docs/health.md ("Testing rules").

Exit codes: 0 every case holds; 1 a case does not hold, a rule or test file is invalid,
or DIR cannot be read.`

func newHealthCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "health",
		Short: "Test the health rules in CEL for custom resources (kubeplan.yaml's health:)",
	}
	cmd.AddCommand(newHealthTestCmd(s))
	return cmd
}

func newHealthTestCmd(s streams) *cobra.Command {
	return &cobra.Command{
		Use:     "test [DIR]",
		Short:   "Run the kubeplan-health-test.yaml cases under DIR",
		Long:    healthTestHelp,
		Example: "  kubeplan health test\n  kubeplan health test health/kubeplan-health-test.yaml",
		Args:    cobra.MaximumNArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s.stopOnSignal(cmd)
			dir := "."
			if len(args) == 1 {
				dir = args[0]
			}
			rep, err := healthtest.Run(dir)
			if err != nil {
				return err
			}
			if err := rep.WriteText(s.out); err != nil {
				return err
			}
			if !rep.OK() {
				return exitError{exitFailed}
			}
			return nil
		},
	}
}
