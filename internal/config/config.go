package config

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"regexp"
	"strconv"

	yaml "go.yaml.in/yaml/v3"
)

// DefaultFile is the config's name: Discover looks for it from a directory up
// to the repository root when --config is not given.
const DefaultFile = ".kubeplan.yaml"

// Config is the content of .kubeplan.yaml.
type Config struct {
	// KubeVersion is the Kubernetes version to lint against ("1.37").
	KubeVersion string `yaml:"kubeVersion"`
	// Exclude lists glob patterns ("**" allowed) of paths not to read.
	Exclude []string `yaml:"exclude"`
	// CRDs lists files or directories with extra CustomResourceDefinitions.
	CRDs []string `yaml:"crds"`
	// IgnoreMissingSchemas makes a custom resource without a CRD a warning.
	IgnoreMissingSchemas bool `yaml:"ignoreMissingSchemas"`
	// Rules maps a rule id to off, error, warning or info.
	Rules map[string]string `yaml:"rules"`

	// File is where the config was read from ("" when none).
	File string `yaml:"-"`
	// Dir is the absolute directory of File ("" when none): relative paths
	// in the config are relative to it (see Resolve).
	Dir string `yaml:"-"`
	// RulePos is the line:column of each entry under rules, for messages.
	RulePos map[string][2]int `yaml:"-"`
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

var lineRE = regexp.MustCompile(`line (\d+): (.*)`)

// Parse reads config data; unknown keys are errors.
func Parse(path string, data []byte) (*Config, error) {
	c := &Config{File: path, Dir: dirOf(path), RulePos: map[string][2]int{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return c, nil
	}
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(c); err != nil {
		if m := lineRE.FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, fmt.Errorf("%s:%d:1: %s (see kubeplan lint --help for the config keys)", path, line, m[2])
		}
		return nil, fmt.Errorf("%s:1:1: %s", path, err)
	}
	c.File, c.Dir = path, dirOf(path)
	var n yaml.Node
	if yaml.Unmarshal(data, &n) == nil && len(n.Content) > 0 {
		root := n.Content[0]
		for i := 0; i+1 < len(root.Content); i += 2 {
			if root.Content[i].Value != "rules" {
				continue
			}
			rules := root.Content[i+1]
			for j := 0; j+1 < len(rules.Content); j += 2 {
				k := rules.Content[j]
				c.RulePos[k.Value] = [2]int{k.Line, k.Column}
			}
		}
	}
	return c, nil
}

// Where returns "file:line:col" of a rule entry, for error messages.
func (c *Config) Where(rule string) string {
	p, ok := c.RulePos[rule]
	if !ok {
		return c.File
	}
	return fmt.Sprintf("%s:%d:%d", c.File, p[0], p[1])
}
