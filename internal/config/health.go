package config

import (
	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/healthexpr"
)

// health reads the top-level health: key, a list of health rules in the
// shape of Flux's healthCheckExprs (internal/healthexpr), and compiles
// them over the built-in rules: a rule that does not compile is an error
// at the file:line:col of its expression.
func (d decoder) health(n *yaml.Node, c *Config) error {
	rules, err := healthexpr.Parse(d.file, nil, n, "health")
	if err != nil {
		return err
	}
	set, err := healthexpr.Compile(rules)
	if err != nil {
		return err
	}
	c.HealthRules, c.Health = rules, set
	return nil
}
