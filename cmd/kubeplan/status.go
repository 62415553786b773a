package main

import (
	"context"
	"encoding/json"
	"fmt"
	"text/tabwriter"

	"github.com/spf13/cobra"
	"k8s.io/cli-runtime/pkg/genericclioptions"

	"github.com/kubeplan/kubeplan/apply"
	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/kube"
)

func newStatusCmd(s streams) *cobra.Command {
	var applySet, output string
	kf := kube.Flags()
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show what the cluster runs for an ApplySet: revision, time, result, members and their health",
		Long: `Show the ApplySet's recorded revision and apply time, the last result and error, and every
member with its health (kstatus). Read-only: works with an identity that may only read.`,
		Example: `  kubeplan status -n store --applyset configmap/gitops-applyset
  kubeplan status -n store --applyset configmap/gitops-applyset -o json`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runStatus(s, kf, applySet, output)
		},
	}
	kf.AddFlags(cmd.Flags())
	cmd.Flags().StringVar(&applySet, "applyset", "", "the ApplySet, as configmap/NAME or secret/NAME (required)")
	cmd.Flags().StringVarP(&output, "output", "o", "text", "output format: text or json")
	_ = cmd.MarkFlagRequired("applyset")
	return cmd
}

func runStatus(s streams, kf *genericclioptions.ConfigFlags, applySet, output string) error {
	if output != "text" && output != "json" {
		return usage(fmt.Errorf("unknown --output %q: want text or json", output))
	}
	c, err := kube.New(kf)
	if err != nil {
		return usage(err)
	}
	as, err := applyset.ParseParentFlag(applySet, c.Namespace)
	if err != nil {
		return usage(err)
	}
	st, err := apply.ReadStatus(context.Background(), c, as)
	if err != nil {
		return err
	}
	if output == "json" {
		enc := json.NewEncoder(s.out)
		enc.SetIndent("", "  ")
		return enc.Encode(st)
	}
	fmt.Fprintf(s.out, "ApplySet:  %s in namespace %s (%s)\n", st.ApplySet, st.Namespace, st.Tooling)
	fmt.Fprintf(s.out, "Revision:  %s\n", orNone(st.Revision))
	fmt.Fprintf(s.out, "Applied:   %s\n", orNone(st.AppliedAt))
	fmt.Fprintf(s.out, "Result:    %s\n", orNone(st.Result))
	if st.LastError != "" {
		fmt.Fprintf(s.out, "Error:     %s\n", st.LastError)
	}
	fmt.Fprintf(s.out, "Members:   %d\n", len(st.Members))
	tw := tabwriter.NewWriter(s.out, 0, 4, 2, ' ', 0)
	for _, m := range st.Members {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", m.Ref, m.Status, m.Message)
	}
	return tw.Flush()
}

func orNone(s string) string {
	if s == "" {
		return "(none recorded)"
	}
	return s
}
