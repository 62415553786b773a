package config

import (
	"fmt"
	"path"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// YieldRule is one item of yield: fields kubeplan leaves to another
// controller (not diffed, not sent, not repaired). A rule names them by
// path, on the objects of one kind, or by field manager: whatever that
// manager owns in the live object (and kubeplan does not).
type YieldRule struct {
	// Kind and Group name the objects of a path rule; Group "" with
	// GroupSet false means any group.
	Kind     string
	Group    string
	GroupSet bool
	// Paths are the fields (ParseYieldPath), as written in Raw.
	Paths []YieldPath
	Raw   []string
	// Manager is a field manager's name, or a glob of them ("vpa-*"),
	// for a manager rule; Kinds, if any, limit it to those kinds.
	Manager string
	Kinds   []string
	// At is where the rule is (zero for a built-in one).
	At Pos
}

// YieldBuiltins are the names of the built-in yield rules (yieldDefaults:);
// package plan has what each does, docs/yield.md says it.
var YieldBuiltins = []string{"autoscalers", "ca-injectors", "aggregated-clusterroles", "vpa"}

// Yield are the yield settings of a project: kubeplan.yaml's rules (top
// level, defaults and the project's entry) and which built-in ones are
// off.
type Yield struct {
	Rules []YieldRule
	// Off are the built-in rules turned off, by name; AllOff turns every
	// one off (yieldDefaults: false).
	Off    map[string]bool
	AllOff bool
}

// BuiltinOn reports whether the built-in rule name is on.
func (y Yield) BuiltinOn(name string) bool { return !y.AllOff && !y.Off[name] }

// MatchesKind reports whether the rule's objects include group and kind.
func (r YieldRule) MatchesKind(group, kind string) bool {
	if r.Manager != "" {
		return len(r.Kinds) == 0 || slices.Contains(r.Kinds, kind)
	}
	return r.Kind == kind && (!r.GroupSet || r.Group == group)
}

// MatchesManager reports whether a manager rule covers manager.
func (r YieldRule) MatchesManager(manager string) bool {
	ok, _ := path.Match(r.Manager, manager)
	return r.Manager != "" && ok
}

// yieldRules reads a list of yield rules; where is "yield" or
// "projects[0].yield".
func (d decoder) yieldRules(n *yaml.Node, where string) ([]YieldRule, error) {
	n = deref(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "%s: want a list of rules ({kind: Deployment, paths: [spec.replicas]} or {manager: NAME}), got %s", where, kindName(n))
	}
	var out []YieldRule
	for i, item := range n.Content {
		r, err := d.yieldRule(item, fmt.Sprintf("%s[%d]", where, i))
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// yieldRule reads one rule and checks it names fields one way.
func (d decoder) yieldRule(n *yaml.Node, where string) (YieldRule, error) {
	n = deref(n)
	r := YieldRule{At: at(n)}
	var err error
	var pathsNode *yaml.Node
	err = d.fields(n, where, map[string]func(*yaml.Node) error{
		"kind":    func(v *yaml.Node) error { r.Kind, err = d.str(v, where+".kind"); return err },
		"group":   func(v *yaml.Node) error { r.Group, err = d.str(v, where+".group"); r.GroupSet = true; return err },
		"manager": func(v *yaml.Node) error { r.Manager, err = d.str(v, where+".manager"); return err },
		"kinds":   func(v *yaml.Node) error { r.Kinds, _, err = d.strList(v, where+".kinds"); return err },
		"paths": func(v *yaml.Node) error {
			pathsNode = deref(v)
			var nodes []*yaml.Node
			r.Raw, nodes, err = d.y().StrList(v, where+".paths")
			if err != nil {
				return err
			}
			for i, s := range r.Raw {
				p, perr := ParseYieldPath(s)
				if perr != nil {
					return d.errorf(nodes[i], "%s.paths[%d]: bad path %q: %v (write fields joined by dots, [*] for every list item, [name=app] for one, as spec.template.spec.containers[*].resources)", where, i, s, perr)
				}
				r.Paths = append(r.Paths, p)
			}
			return nil
		},
	})
	if err != nil {
		return r, err
	}
	switch {
	case r.Manager != "" && (len(r.Paths) > 0 || r.Kind != "" || r.GroupSet):
		return r, d.errorf(n, "%s: a rule names fields by kind and paths, or by manager (with kinds), not both", where)
	case r.Manager != "":
		if _, perr := path.Match(r.Manager, ""); perr != nil {
			return r, d.errorf(n, "%s.manager: bad glob %q: %v", where, r.Manager, perr)
		}
		for i, k := range r.Kinds {
			if !isKind(k) {
				return r, d.errorf(n, "%s.kinds[%d]: want a kind as manifests write it (Deployment, ConfigMap), got %q", where, i, k)
			}
		}
	case r.Kind == "" || len(r.Paths) == 0:
		if pathsNode != nil && len(r.Paths) == 0 && r.Kind != "" {
			return r, d.errorf(pathsNode, "%s.paths: name at least one field, as [spec.replicas]", where)
		}
		return r, d.errorf(n, "%s: want kind and paths ({kind: Deployment, paths: [spec.replicas]}) or manager ({manager: vpa-recommender})", where)
	case len(r.Kinds) > 0:
		return r, d.errorf(n, "%s.kinds: only a manager rule takes kinds; a path rule names one kind", where)
	case !isKind(r.Kind):
		return r, d.errorf(n, "%s.kind: want a kind as manifests write it (Deployment, ConfigMap), got %q", where, r.Kind)
	case strings.Contains(r.Group, "/"):
		return r, d.errorf(n, "%s.group: want the API group without its version (apps, not apps/v1; \"\" for the core group), got %q", where, r.Group)
	}
	return r, nil
}

// yieldDefaults reads yieldDefaults: true, false, or a mapping of
// built-in rule names to true or false.
func (d decoder) yieldDefaults(n *yaml.Node, c *Config) error {
	n = deref(n)
	if isNull(n) {
		return nil
	}
	if n.Kind == yaml.ScalarNode {
		on, err := d.boolean(n, "yieldDefaults")
		c.YieldOff = map[string]bool{}
		c.YieldAllOff = !on
		return err
	}
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, "yieldDefaults: want true, false or a mapping of built-in rule to true or false, got %s", kindName(n))
	}
	c.YieldOff = map[string]bool{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k := n.Content[i]
		if !slices.Contains(YieldBuiltins, k.Value) {
			return d.errorf(k, "yieldDefaults: unknown built-in rule %q (the built-in rules are %s; see docs/yield.md)", k.Value, strings.Join(YieldBuiltins, ", "))
		}
		on, err := d.boolean(n.Content[i+1], "yieldDefaults."+k.Value)
		if err != nil {
			return err
		}
		c.YieldOff[k.Value] = !on
	}
	return nil
}

// ProjectYield is the yield settings of the project of entry e (nil for
// a project no entry declares): the top level's rules, the defaults' and
// the entry's, all of them, and the built-in rules yieldDefaults leaves
// on.
func (c *Config) ProjectYield(e *Entry) Yield {
	y := Yield{Off: c.YieldOff, AllOff: c.YieldAllOff}
	y.Rules = append(y.Rules, c.Yield...)
	y.Rules = append(y.Rules, c.Defaults.Yield...)
	if e != nil {
		y.Rules = append(y.Rules, e.Yield...)
	}
	return y
}

// isKind reports whether s reads as a kind: a capital letter, then
// letters and digits.
func isKind(s string) bool {
	for i, c := range s {
		if !(c >= 'A' && c <= 'Z' || i > 0 && (c >= 'a' && c <= 'z' || c >= '0' && c <= '9')) {
			return false
		}
	}
	return s != ""
}
