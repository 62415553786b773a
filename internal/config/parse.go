package config

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"sync"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/guard"
)

var lineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+): (.*)`) })

// Parse reads config data. Unknown keys, values of the wrong type and
// settings kubeplan cannot use (an unsupported kubeVersion, a malformed
// applyset, a name on a glob entry) are errors at file:line:col.
func Parse(path string, data []byte) (*Config, error) {
	c := &Config{File: path, Dir: dirOf(path), RulePos: map[string][2]int{}}
	if len(bytes.TrimSpace(data)) == 0 {
		return c, nil
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		if m := lineRE().FindStringSubmatch(err.Error()); m != nil {
			line, _ := strconv.Atoi(m[1])
			return nil, fmt.Errorf("%s:%d:1: %s", path, line, m[2])
		}
		return nil, fmt.Errorf("%s:1:1: %w", path, err)
	}
	if len(doc.Content) == 0 {
		return c, nil
	}
	d := decoder{file: path}
	if err := d.top(doc.Content[0], c); err != nil {
		return nil, err
	}
	if err := c.validate(); err != nil {
		return nil, err
	}
	return c, nil
}

// top reads the top-level mapping into c.
func (d decoder) top(n *yaml.Node, c *Config) error {
	var err error
	return d.fields(n, "the top level", map[string]func(*yaml.Node) error{
		"kubeVersion": func(v *yaml.Node) error {
			c.KubeVersion, err = d.kubeVersion(v, "kubeVersion")
			return err
		},
		"exclude": func(v *yaml.Node) error { c.Exclude, _, err = d.strList(v, "exclude"); return err },
		"crds":    func(v *yaml.Node) error { c.CRDs, _, err = d.strList(v, "crds"); return err },
		"ignore":  func(v *yaml.Node) error { c.Ignore, _, err = d.strList(v, "ignore"); return err },
		"policies": func(v *yaml.Node) error {
			c.Policies, _, err = d.strList(v, "policies")
			return err
		},
		"ignoreMissingSchemas": func(v *yaml.Node) error {
			c.IgnoreMissingSchemas, err = d.boolean(v, "ignoreMissingSchemas")
			return err
		},
		"rules":       func(v *yaml.Node) error { return d.rules(v, c) },
		"defaults":    func(v *yaml.Node) error { return d.settings(v, "defaults", &c.Defaults, nil) },
		"projects":    func(v *yaml.Node) error { return d.projects(v, c) },
		"guards":      func(v *yaml.Node) error { return d.guards(v, c) },
		"podSecurity": func(v *yaml.Node) error { return d.podSecurity(v, c) },
		"health":      func(v *yaml.Node) error { return d.health(v, c) },

		"yield":         func(v *yaml.Node) error { c.Yield, err = d.yieldRules(v, "yield"); return err },
		"yieldDefaults": func(v *yaml.Node) error { return d.yieldDefaults(v, c) },
	})
}

// rules reads rules: a mapping of rule id to setting.
func (d decoder) rules(n *yaml.Node, c *Config) error {
	n = deref(n)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, "rules: want a mapping of rule id to off, error, warning or info, got %s", kindName(n))
	}
	c.Rules = map[string]string{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		v, err := d.str(n.Content[i+1], "rules."+k.Value)
		if err != nil {
			return err
		}
		c.Rules[k.Value] = v
		c.RulePos[k.Value] = [2]int{k.Line, k.Column}
	}
	return nil
}

// settings reads the keys a project may set into s; extra holds the keys
// only an entry has (name, path, dependsOn, helm).
func (d decoder) settings(n *yaml.Node, where string, s *Settings, extra map[string]func(*yaml.Node) error) error {
	s.Pos = map[string]Pos{}
	str := func(key string, dst *string) func(*yaml.Node) error {
		return func(v *yaml.Node) error {
			var err error
			*dst, err = d.str(v, where+"."+key)
			s.Pos[key] = at(deref(v))
			return err
		}
	}
	set := map[string]func(*yaml.Node) error{
		"namespace":  str("namespace", &s.Namespace),
		"applyset":   str("applyset", &s.ApplySet),
		"cluster":    d.cluster(where, "cluster", s),
		"context":    d.cluster(where, "context", s),
		"kubeconfig": func(v *yaml.Node) error { return d.kubeconfigRefused(deref(v), where) },
		"kubeVersion": func(v *yaml.Node) error {
			var err error
			s.KubeVersion, err = d.kubeVersion(v, where+".kubeVersion")
			s.Pos["kubeVersion"] = at(deref(v))
			return err
		},
		"windows": func(v *yaml.Node) error {
			var err error
			s.Windows, err = guard.ParseWindows(d.file, v)
			s.Pos["windows"] = at(deref(v))
			return err
		},
		"rollOnConfigChange": func(v *yaml.Node) error {
			b, err := d.boolean(v, where+".rollOnConfigChange")
			s.RollOnConfigChange, s.Pos["rollOnConfigChange"] = &b, at(deref(v))
			return err
		},
		"yield": func(v *yaml.Node) error {
			var err error
			s.Yield, err = d.yieldRules(v, where+".yield")
			s.Pos["yield"] = at(deref(v))
			return err
		},
	}
	for k, f := range extra {
		set[k] = f
	}
	return d.fields(n, where, set)
}

// projects reads projects: a list of entries.
func (d decoder) projects(n *yaml.Node, c *Config) error {
	n = deref(n)
	c.Projects = []Entry{}
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.SequenceNode {
		return d.errorf(n, "projects: want a list of projects, got %s", kindName(n))
	}
	for i, item := range n.Content {
		where := fmt.Sprintf("projects[%d]", i)
		e := Entry{At: at(deref(item))}
		var err error
		extra := map[string]func(*yaml.Node) error{
			"name": func(v *yaml.Node) error {
				e.Name, err = d.str(v, where+".name")
				e.Pos["name"] = at(deref(v))
				return err
			},
			"path": func(v *yaml.Node) error {
				e.Path, err = d.str(v, where+".path")
				e.Pos["path"] = at(deref(v))
				return err
			},
			"dependsOn": func(v *yaml.Node) error {
				e.DependsOn, e.DependsPos, err = d.strList(v, where+".dependsOn")
				e.Pos["dependsOn"] = at(deref(v))
				return err
			},
			"interval": func(v *yaml.Node) error {
				e.Interval, err = d.interval(v, where+".interval")
				e.Pos["interval"] = at(deref(v))
				return err
			},
			"helm": func(v *yaml.Node) error {
				e.Helm, err = d.helm(v, where)
				e.Pos["helm"] = at(deref(v))
				return err
			},
		}
		if err := d.settings(item, where, &e.Settings, extra); err != nil {
			return err
		}
		c.Projects = append(c.Projects, e)
	}
	return nil
}
