package main

import (
	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/lint/guardtest"
	"github.com/kubeplan/kubeplan/render"
)

func newPolicyCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Test ValidatingAdmissionPolicies and guard rules against expected verdicts",
	}
	cmd.AddCommand(newPolicyTestCmd(s))
	return cmd
}

func newPolicyTestCmd(s streams) *cobra.Command {
	f := &arguments.PolicyTest{}
	cmd := &cobra.Command{
		Use:   "test DIR",
		Short: "Run the kubeplan-test.yaml and kubeplan-guard-test.yaml cases under DIR",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s.stopOnSignal(cmd) // SIGINT or SIGTERM: exit 1 within 2 s
			if err := f.Check(); err != nil {
				return err
			}
			rep, err := guardtest.Run(args[0])
			if err != nil {
				return err
			}
			if err := render.PolicyTest(s.out, f.Output, rep); err != nil {
				return err
			}
			if !rep.OK() {
				return exitError{exitFailed}
			}
			return nil
		},
	}
	f.Bind(cmd.Flags())
	return withHelp(cmd, "policy-test", true)
}
