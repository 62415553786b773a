package main

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/arguments"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/render"
)

func newUnlockCmd(s streams) *cobra.Command {
	f := &arguments.Unlock{}
	cmd := &cobra.Command{
		Use:   "unlock",
		Short: "Break the apply lock of an ApplySet whose holder died, like terraform force-unlock",
		Args:  cobra.NoArgs,
		RunE:  func(*cobra.Command, []string) error { return runUnlock(s, f) },
	}
	f.Bind(cmd.Flags())
	_ = cmd.MarkFlagRequired("applyset")
	return withHelp(cmd, "unlock", true)
}

func runUnlock(s streams, f *arguments.Unlock) error {
	ctx := context.Background()
	c, as, err := kube.ConnectSet(ctx, f.Kube, f.ApplySet)
	if err != nil {
		return err
	}
	u, err := apply.Unlock(ctx, c, as)
	if err != nil {
		return err
	}
	return render.Unlocked(s.out, as.String(), u)
}
