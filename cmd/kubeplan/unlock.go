package main

import (
	"context"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/render"
)

type unlockFlags struct {
	kube     *genericclioptions.ConfigFlags
	applySet string
}

func newUnlockCmd(s streams) *cobra.Command {
	f := &unlockFlags{kube: kube.Flags()}
	cmd := &cobra.Command{
		Use:   "unlock",
		Short: "Break the apply lock of an ApplySet whose holder died, like terraform force-unlock",
		Long: `Break the apply lock (the Lease kubeplan-lock-<name>) of an ApplySet after an apply crashed,
instead of waiting for the Lease to expire.

A live apply renews its lock every third of the Lease's duration; unlock refuses while the
holder keeps renewing it, and deletes the Lease only if it is still the version it read.

` + arguments.ExitCodesHelp(),
		Example: `  kubeplan unlock -n store --applyset configmap/gitops-applyset`,
		Args:    cobra.NoArgs,
		RunE:    func(cmd *cobra.Command, _ []string) error { return runUnlock(s, f) },
	}
	f.kube.AddFlags(cmd.Flags())
	cmd.Flags().StringVar(&f.applySet, "applyset", "", "the ApplySet, as configmap/NAME or secret/NAME (required)")
	_ = cmd.MarkFlagRequired("applyset")
	return cmd
}

func runUnlock(s streams, f *unlockFlags) error {
	ctx := context.Background()
	c, as, err := connectSet(ctx, f.kube, f.applySet)
	if err != nil {
		return err
	}
	u, err := apply.Unlock(ctx, c, as)
	if err != nil {
		return err
	}
	return render.Unlocked(s.out, as.String(), u)
}
