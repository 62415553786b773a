package config

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"time"
)

// DefaultFile is the config's name: Discover looks for it from a directory up
// to the repository root when --config is not given.
const DefaultFile = "kubeplan.yaml"

// LegacyFile is the config's former name, still read when a directory has no
// DefaultFile (Config.Legacy is then set).
const LegacyFile = ".kubeplan.yaml"

// DefaultApplySet is the ApplySet of a project that sets none, in either
// place; {name} is the project's name.
const DefaultApplySet = "configmap/kubeplan-{name}"

// NamePlaceholder in a namespace or an applyset is replaced by the
// project's name.
const NamePlaceholder = "{name}"

// Config is the content of kubeplan.yaml.
type Config struct {
	// KubeVersion is the Kubernetes version to lint against ("1.37"),
	// normalized; "" when not set.
	KubeVersion string
	// Exclude lists glob patterns ("**" allowed) of paths not to read.
	Exclude []string
	// CRDs lists files or directories with extra CustomResourceDefinitions.
	CRDs []string
	// Policies lists files or directories of ValidatingAdmissionPolicies,
	// their bindings and parameter objects that lint evaluates.
	Policies []string
	// IgnoreMissingSchemas makes a custom resource without a CRD a warning.
	IgnoreMissingSchemas bool
	// Rules maps a rule id to off, error, warning or info.
	Rules map[string]string
	// Ignore lists globs, relative to Dir, of paths that are never projects.
	Ignore []string
	// Defaults are the settings of every project that does not set them.
	Defaults Settings
	// Projects are the declared projects, in file order; nil when the
	// file has no projects: key (every discovered project is one).
	Projects []Entry

	// File is where the config was read from ("" when none).
	File string
	// Dir is the absolute directory of File ("" when none): relative paths
	// in the config are relative to it (see Resolve).
	Dir string
	// Legacy is true when File was found under its former name,
	// .kubeplan.yaml: the CLI asks for a rename.
	Legacy bool
	// RulePos is the line:column of each entry under rules, for messages.
	RulePos map[string][2]int
}

// Pos is a line and a column (1-based) in the config file.
type Pos struct{ Line, Col int }

// Settings are what a project may set: in defaults or in its entry. Empty
// means not set.
type Settings struct {
	Namespace string
	ApplySet  string
	// Cluster is the logical name of the project's cluster (cluster:, or
	// its alias context:); the runner maps it to a kubeconfig and context
	// (--clusters, KUBEPLAN_CLUSTERS). Its position is Pos["cluster"].
	Cluster     string
	KubeVersion string
	// Pos says where each key that was set is, by its name in the file
	// ("namespace", "applyset", "cluster", ...; for an entry also "name",
	// "path" and "dependsOn").
	Pos map[string]Pos
}

// Entry is one item of projects:.
type Entry struct {
	// Name is the project's name; "" means the discovered name.
	Name string
	// Path is a directory relative to Dir, or a glob of them (see Glob).
	Path string
	Settings
	// DependsOn names projects to plan and apply first; DependsPos says
	// where each name is.
	DependsOn  []string
	DependsPos []Pos
	// Interval is how often kubeplan serve reconciles the project; 0
	// means its --interval.
	Interval time.Duration
	// Helm is the entry's helm: key, nil when absent: the project is a
	// chart rendered with these settings.
	Helm *Helm
	// At is where the entry starts.
	At Pos
}

// Load reads path (--config). When explicit is false a missing file is not
// an error and yields an empty Config. Dir is the directory of path.
func Load(path string, explicit bool) (*Config, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return &Config{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading config: %w", err)
	}
	return Parse(path, data)
}

// Where returns "file:line:col" of a rule entry, for error messages.
func (c *Config) Where(rule string) string {
	p, ok := c.RulePos[rule]
	if !ok {
		return c.File
	}
	return fmt.Sprintf("%s:%d:%d", c.File, p[0], p[1])
}

// At returns "file:line:col" of p, for error messages.
func (c *Config) At(p Pos) string {
	if p.Line == 0 {
		return c.File
	}
	return fmt.Sprintf("%s:%d:%d", c.File, p.Line, p.Col)
}

// Glob reports whether the entry's path is a glob (it holds *, ?, ** or
// [), matching discovered projects, rather than one directory.
func (e Entry) Glob() bool { return IsGlob(e.Path) }
