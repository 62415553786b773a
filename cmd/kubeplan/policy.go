package main

import (
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/lint/admission"
	"github.com/kubeplan/kubeplan/render"
)

func newPolicyCmd(s streams) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "policy",
		Short: "Work with ValidatingAdmissionPolicies: test them against expected verdicts",
	}
	cmd.AddCommand(newPolicyTestCmd(s))
	return cmd
}

func newPolicyTestCmd(s streams) *cobra.Command {
	var output string
	cmd := &cobra.Command{
		Use:   "test DIR",
		Short: "Run the kubeplan-test.yaml cases under DIR: each policy's verdict on each resource",
		Long: `Run every kubeplan-test.yaml under DIR (or the one file DIR names): the verdict expected of
each ValidatingAdmissionPolicy on each resource, judged offline as kubeplan lint judges them.
Prints a line per case and the counts. Nothing outside the checkout is read.

Reference: docs/policies.md ("Testing policies").

Exit codes: 0 every case holds; 1 a case does not hold, a policy or test file is invalid, or
DIR cannot be read.`,
		Example: `  kubeplan policy test policies/
  kubeplan policy test policies/library/nonroot/kubeplan-test.yaml`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			s.stopOnSignal(cmd) // SIGINT or SIGTERM: exit 1 within 2 s
			if !slices.Contains(render.PolicyTestFormats(), output) {
				return fmt.Errorf("unknown --output %q: want one of %s", output, strings.Join(render.PolicyTestFormats(), ", "))
			}
			rep, err := admission.RunTests(args[0])
			if err != nil {
				return err
			}
			if err := render.PolicyTest(s.out, output, rep); err != nil {
				return err
			}
			if !rep.OK() {
				return exitError{exitFailed}
			}
			return nil
		},
	}
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: "+strings.Join(render.PolicyTestFormats(), ", "))
	return cmd
}
