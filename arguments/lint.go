package arguments

import (
	"strings"

	"github.com/spf13/pflag"

	"github.com/kubeplan/kubeplan/render"
	"github.com/kubeplan/kubeplan/workspace"
)

// Lint is kubeplan lint's command line: what to read (Input), the
// projects to lint (Select, with lint's own help), the namespace the
// manifests are meant for and the report's format.
type Lint struct {
	Input     Input
	Select    Select
	Output    string
	Namespace string
	ListRules bool
	// PodSecurity is --pod-security LEVEL[:VERSION]: the namespaces'
	// enforce level for the pod-security rule (workspace.Overrides).
	PodSecurity string
	// outputSet reports whether --output was given.
	outputSet func() bool
}

// Bind adds lint's flags.
func (f *Lint) Bind(fl *pflag.FlagSet) {
	f.Input.Bind(fl)
	f.Input.BindKeyFile(fl)
	fl.StringVarP(&f.Output, "output", "o", "", "output format: "+strings.Join(render.LintFormats(), ", ")+" (default text, or github when GITHUB_ACTIONS=true)")
	fl.StringVarP(&f.Namespace, "namespace", "n", "", "namespace the manifests are meant for (enables namespace-mismatch)")
	fl.StringVar(&f.Select.ChangedSince, "changed-since", "", "lint only the projects a change since this git revision affects (see kubeplan projects --help)")
	fl.StringArrayVar(&f.Select.Projects, "project", nil, "lint only this project, by the name kubeplan projects shows (repeatable)")
	fl.BoolVar(&f.Select.All, "all", false, "lint every project under PATH (the default for a directory; with --changed-since or --project it narrows)")
	fl.BoolVar(&f.ListRules, "list-rules", false, "list every rule with its id, default severity and description, then exit")
	fl.StringArrayVar(&f.Input.Policies, "policies", nil, "file or directory of ValidatingAdmissionPolicies, their bindings, parameter objects and the CRDs of their paramKinds to judge the manifests with (repeatable); policies the API server would refuse are errors (docs/policies.md)")
	fl.StringVar(&f.PodSecurity, "pod-security", "", "judge pod templates as Pod Security Admission enforcing LEVEL[:VERSION] (privileged, baseline, restricted; latest or v1.N) would, where no Namespace in the set has pod-security.kubernetes.io labels; over podSecurity.enforce in kubeplan.yaml")
	fl.IntVar(&f.Input.Concurrency, "concurrency", 0, "files and objects checked in parallel (default: number of CPUs)")
	f.outputSet = func() bool { return fl.Changed("output") }
}

// Options are the workspace options the flags make: wo with the overrides
// of the input, the selection and --pod-security.
func (f *Lint) Options(wo workspace.Options) workspace.Options {
	wo.Overrides.PodSecurity = f.PodSecurity
	return wo
}

// Format is the report's format: --output, else github in GitHub Actions
// (github), else text. An --output lint has no view for is an error.
func (f *Lint) Format(github bool) (string, error) {
	format := f.Output
	if f.outputSet == nil || !f.outputSet() {
		format = "text"
		if github {
			format = "github"
		}
	}
	if err := checkOutput(format, render.LintFormats()); err != nil {
		return "", err
	}
	return format, nil
}
