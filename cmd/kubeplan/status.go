package main

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
	"github.com/kubeplan/kubeplan/render"
)

type statusFlags struct {
	kube     *genericclioptions.ConfigFlags
	applySet string
	output   string
}

func newStatusCmd(s streams) *cobra.Command {
	f := &statusFlags{kube: kube.Flags()}
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show what the cluster runs for an ApplySet: revision, times, result, members and their health",
		Long: `Show what the ApplySet's parent records about the last runs and every member with its health
(kstatus):

  Revision  the git commit last applied (+dirty: from a work tree with changes)
  Applied   when a run last wrote an object
  Checked   when a run last compared the cluster with the source (to the minute)
  Result    ok or failed, with the error of a failed run

Read-only, and it never reads Secrets: it works with the built-in view role. Secret members
are counted out of the list.

` + exitCodesHelp,
		Example: `  kubeplan status -n store --applyset configmap/gitops-applyset
  kubeplan status -n store --applyset configmap/gitops-applyset -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error { return runStatus(s, f) },
	}
	f.kube.AddFlags(cmd.Flags())
	cmd.Flags().StringVar(&f.applySet, "applyset", "", "the ApplySet, as configmap/NAME or secret/NAME (required)")
	cmd.Flags().StringVarP(&f.output, "output", "o", "text", "output format: text or json")
	_ = cmd.MarkFlagRequired("applyset")
	return cmd
}

func runStatus(s streams, f *statusFlags) error {
	if !slices.Contains([]string{"text", "json"}, f.output) {
		return fmt.Errorf("unknown --output %q: want text or json", f.output)
	}
	ctx := context.Background()
	c, as, err := connectSet(ctx, f.kube, f.applySet)
	if err != nil {
		return err
	}
	st, err := apply.ReadStatus(ctx, c, as)
	if err != nil {
		return err
	}
	return render.Status(s.out, strings.ToLower(f.output), st)
}

// connectSet connects (one request: a missing kubeconfig or an unreachable
// server is one line) and parses --applyset, for the verbs about one set.
func connectSet(ctx context.Context, kf *genericclioptions.ConfigFlags, applySet string) (*kube.Client, applyset.Parent, error) {
	c, err := kube.Connect(kf)
	if err != nil {
		return nil, applyset.Parent{}, err
	}
	if err := c.Ping(ctx); err != nil {
		return nil, applyset.Parent{}, err
	}
	as, err := applyset.ParseParentFlag(applySet, c.Namespace)
	return c, as, err
}
