package config

import (
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"time"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/internal/healthexpr"
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
	// PodSecurity is podSecurity: (the pod-security rule's levels and
	// exemptions); nil when absent.
	PodSecurity *PodSecurity
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
	// Guards are the rules over plans (guards:): those of kubeplan.yaml,
	// then those of the files it names (GuardFiles), once Load has read
	// them.
	Guards guard.Config
	// GuardFiles are the rule files and directories guards.files names,
	// as written (relative to Dir); GuardFilesPos says where each is.
	GuardFiles    []string
	GuardFilesPos []Pos
	// Health are the health rules in CEL (health:) compiled over the
	// built-in ones; nil without health: (the built-ins alone).
	// HealthRules are the rules as read.
	Health      *healthexpr.Set
	HealthRules []healthexpr.Rule
	// Yield are the top level's yield rules (yield:, see yield.go);
	// YieldOff and YieldAllOff the built-in ones yieldDefaults: turns off.
	Yield       []YieldRule
	YieldOff    map[string]bool
	YieldAllOff bool

	// File is where the config was read from ("" when none).
	File string
	// Dir is the absolute directory of File ("" when none): relative paths
	// in the config are relative to it (see Resolve).
	Dir string
	// Root is the resolved directory every path the config names must
	// resolve inside: the checkout holding the config; "" when it was not
	// read from a file, or the workflow named one outside the checkout
	// with --config (its own file, not the pull request's).
	Root string
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
	// Windows are the change windows (windows:); nil when not set. An
	// entry's windows, an empty list included, replace the defaults'.
	Windows []guard.Window
	// RollOnConfigChange is rollOnConfigChange: (docs/roll.md); nil when
	// not set.
	RollOnConfigChange *bool
	// Yield are the fields left to other controllers (yield:); an
	// entry's add to the defaults' and the top level's (ProjectYield).
	Yield []YieldRule
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

// MaxBytes bounds the config file: it is checked before the file is read
// and enforced while reading. A config is a few hundred lines; no
// kubeplan.yaml comes near this.
const MaxBytes = 1 << 20

// Load reads path (--config). When explicit is false a missing file is not
// an error and yields an empty Config. Dir is the directory of path.
//
// The file is read through internal/confine: when path lies in the
// checkout (confine.RootFor) it must resolve inside it, links followed;
// it must be a regular file of at most MaxBytes. A refused file is never
// opened, so nothing of it can appear in an error. Every path the config
// names (crds, policies) must then resolve inside Root (see CheckPaths).
// A --config outside the checkout is the workflow's own file: it is
// checked as a file, and its paths are not confined.
func Load(path string, explicit bool) (*Config, error) {
	return load(path, explicit, confine.RootFor(path))
}

// load is Load with the root path must resolve inside ("" for none).
func load(path string, explicit bool, root string) (*Config, error) {
	data, err := confine.ReadFileLimit(path, root, MaxBytes)
	if errors.Is(err, fs.ErrNotExist) && !explicit {
		return &Config{}, nil
	}
	if err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	c, err := Parse(path, data)
	if err != nil {
		return nil, err
	}
	c.Root = root
	if err := c.CheckPaths(); err != nil {
		return nil, err
	}
	if err := c.readGuardFiles(); err != nil {
		return nil, err
	}
	return c, nil
}

// CheckPaths refuses a crds, policies or guards.files entry that leads out
// of Root: an absolute path elsewhere, "../" past it, or a link inside
// pointing out. An entry that does not exist is left for the reader to
// report.
func (c *Config) CheckPaths() error {
	if c.Root == "" {
		return nil
	}
	for _, l := range []struct {
		key   string
		paths []string
		pos   []Pos
	}{{"crds", c.CRDs, nil}, {"policies", c.Policies, nil}, {"guards.files", c.GuardFiles, c.GuardFilesPos}} {
		for i, p := range l.paths {
			full := p
			if !filepath.IsAbs(p) && c.Dir != "" {
				full = filepath.Join(c.Dir, p)
			}
			if err := confine.Within(full, c.Root); err != nil {
				where := c.File
				if i < len(l.pos) {
					where = c.At(l.pos[i])
				}
				return fmt.Errorf("%s: %s entry %q: %w", where, l.key, p, err)
			}
		}
	}
	return nil
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
