package guardtest

import "github.com/kubeplan/kubeplan/internal/guard"

// TestFileName is the name of a guard test file.
const TestFileName = "kubeplan-guard-test.yaml"

// GuardTest is a kubeplan-guard-test.yaml.
type GuardTest struct {
	APIVersion string `yaml:"apiVersion"`
	Kind       string `yaml:"kind"`
	// Rules are rule files (or directories of them), relative to the
	// test file.
	Rules []string `yaml:"rules"`
	// Config is a kubeplan.yaml whose guards: key (with the files it
	// names) is tested, relative to the test file.
	Config string `yaml:"config"`
	Cases  []Case `yaml:"cases"`
}

// Case is one plan and the verdicts expected of it.
type Case struct {
	Name    string       `yaml:"name"`
	Plan    TestPlan     `yaml:"plan"`
	Changes []TestChange `yaml:"changes"`
	// Verdicts are every verdict expected, in any order; none means the
	// rules must say nothing.
	Verdicts []Expected `yaml:"verdicts"`
	Line     int        `yaml:"-"`
}

// TestPlan is guard.Plan as a test writes it: what is left out is
// computed from the changes (counts, kinds; prunedFraction from the prunes
// over members).
type TestPlan struct {
	Project        string                      `yaml:"project"`
	Cluster        string                      `yaml:"cluster"`
	Namespace      string                      `yaml:"namespace"`
	ApplySet       string                      `yaml:"applyset"`
	Counts         map[string]int64            `yaml:"counts"`
	Kinds          map[string]map[string]int64 `yaml:"kinds"`
	Members        int64                       `yaml:"members"`
	PrunedFraction *float64                    `yaml:"prunedFraction"`
}

// TestChange is guard.Change as a test writes it; project and cluster
// default to the plan's, object to kind.group/name as plans name objects.
type TestChange struct {
	Action    string         `yaml:"action"`
	Group     string         `yaml:"group"`
	Version   string         `yaml:"version"`
	Kind      string         `yaml:"kind"`
	Namespace string         `yaml:"namespace"`
	Name      string         `yaml:"name"`
	Project   string         `yaml:"project"`
	Cluster   string         `yaml:"cluster"`
	Paths     []string       `yaml:"paths"`
	Before    map[string]any `yaml:"before"`
	After     map[string]any `yaml:"after"`
	Files     []string       `yaml:"files"`
	Object    string         `yaml:"object"`
}

// Expected is one verdict expected: the rule, its outcome, the object
// ("" or absent for a plan rule's) and, when given, the message.
type Expected struct {
	Rule    string        `yaml:"rule"`
	Outcome guard.Outcome `yaml:"outcome"`
	Object  string        `yaml:"object"`
	Message string        `yaml:"message"`
	Line    int           `yaml:"-"`
}
