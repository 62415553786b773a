package main

import (
	"github.com/spf13/cobra"

	"github.com/kubeplan/kubeplan/arguments"
)

// The annotations that name a command's help texts (arguments.Help and
// arguments.Example), which are read when its help or usage is shown, not
// every time kubeplan starts: one run shows at most one command's.
const (
	helpAnnotation    = "kubeplan.help"
	exampleAnnotation = "kubeplan.example"
)

// withHelp gives cmd the --help text arguments.Help(verb) and, when
// example, the examples arguments.Example(verb); showHelpLazily on the
// root reads them.
func withHelp(cmd *cobra.Command, verb string, example bool) *cobra.Command {
	if cmd.Annotations == nil {
		cmd.Annotations = map[string]string{}
	}
	cmd.Annotations[helpAnnotation] = verb
	if example {
		cmd.Annotations[exampleAnnotation] = verb
	}
	return cmd
}

// showHelpLazily makes root's help and usage (which every command
// inherits) fill in the help texts withHelp named before showing them.
func showHelpLazily(root *cobra.Command) {
	help, usage := root.HelpFunc(), root.UsageFunc()
	root.SetHelpFunc(func(c *cobra.Command, args []string) {
		fillHelp(c)
		help(c, args)
	})
	root.SetUsageFunc(func(c *cobra.Command) error {
		fillHelp(c)
		return usage(c)
	})
}

// fillHelp sets c's Long and Example from the texts withHelp named.
func fillHelp(c *cobra.Command) {
	if verb, ok := c.Annotations[helpAnnotation]; ok && c.Long == "" {
		c.Long = arguments.Help(verb)
	}
	if verb, ok := c.Annotations[exampleAnnotation]; ok && c.Example == "" {
		c.Example = arguments.Example(verb)
	}
}
