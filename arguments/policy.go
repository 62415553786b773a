package arguments

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/kubeplan/kubeplan/render"
)

// PolicyTest is kubeplan policy test's command line: the report's format.
type PolicyTest struct {
	Output string
}

// Bind adds the flags of kubeplan policy test.
func (f *PolicyTest) Bind(fl *pflag.FlagSet) {
	fl.StringVarP(&f.Output, "output", "o", "text", "output format: "+strings.Join(render.PolicyTestFormats(), ", "))
}

// Check refuses an --output the report has no view for.
func (f *PolicyTest) Check() error { return checkOutput(f.Output, render.PolicyTestFormats()) }
