package guard

import (
	"fmt"

	"github.com/kubeplan/kubeplan/internal/yamlnode"
	yaml "go.yaml.in/yaml/v3"
)

// ParseConfig reads kubeplan.yaml's guards: node (file names that file,
// for positions): builtin:, rules:, approvals: and files:. It returns the
// Config (File set) and the rule files files: names, as written, for the
// caller to read (confined to the checkout) and parse with ParseRules.
// An unknown key, a wrong type or a missing name or expression is an
// error at its file:line:col. A rule's Pos["expression"] (and
// "messageExpression") is where the text of the expression starts: after
// the quote of a quoted string, on the line after the | of a block.
func ParseConfig(file string, n *yaml.Node) (Config, []string, error) {
	c := Config{File: file}
	d := decoder{file: file}
	if n != nil && n.Kind == yaml.DocumentNode && len(n.Content) > 0 {
		n = n.Content[0]
	}
	var files []string
	err := d.fields(n, "guards", map[string]func(*yaml.Node) error{
		"builtin": func(v *yaml.Node) error {
			return d.builtin(v, &c)
		},
		"rules": func(v *yaml.Node) error {
			rs, err := d.rules(v, "guards.rules")
			c.Rules = rs
			return err
		},
		"files": func(v *yaml.Node) error {
			var err error
			files, err = d.strList(v, "guards.files")
			return err
		},
		"approvals": func(v *yaml.Node) error {
			return d.approvals(v, &c.Approvals)
		},
	})
	if err != nil {
		return Config{File: file}, nil, err
	}
	return c, files, nil
}

// FoldedSuffix marks, in Rule.Pos, a value written as a folded block (>):
// Pos["expression"+FoldedSuffix] is there when the expression is one.
// YAML joined its lines, so a column CEL names inside it cannot be found
// in the file, and an error is put at the value's start.
const FoldedSuffix = ":folded"

// ParseRules reads a rules file: a YAML list of rules, or a mapping whose
// rules: key holds one. Errors as ParseConfig's.
func ParseRules(file string, data []byte) ([]Rule, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s: %w", file, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil
	}
	d := decoder{file: file, data: data}
	n := deref(doc.Content[0])
	if n.Kind == yaml.MappingNode {
		var rs []Rule
		err := d.fields(n, "the rules file", map[string]func(*yaml.Node) error{
			"rules": func(v *yaml.Node) error {
				var err error
				rs, err = d.rules(v, "rules")
				return err
			},
		})
		return rs, err
	}
	return d.rules(n, "the rules file")
}

func (d decoder) builtin(n *yaml.Node, c *Config) error {
	n = deref(n)
	if isNull(n) {
		return nil
	}
	if n.Kind != yaml.MappingNode {
		return d.errorf(n, "guards.builtin: want a mapping of a built-in rule's name to deny, require-approval, warn or off, got %s", kindName(n))
	}
	c.Builtin = map[string]Outcome{}
	c.BuiltinPos = map[string]Pos{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], deref(n.Content[i+1])
		if _, dup := c.Builtin[k.Value]; dup {
			return d.errorf(k, "key %q is given twice in guards.builtin", k.Value)
		}
		if v.Kind != yaml.ScalarNode || isNull(v) {
			return d.errorf(v, "guards.builtin.%s: want deny, require-approval, warn or off, got %s", k.Value, kindName(v))
		}
		c.Builtin[k.Value] = Outcome(v.Value)
		c.BuiltinPos[k.Value] = at(k)
	}
	return nil
}

func (d decoder) approvals(n *yaml.Node, a *Approvals) error {
	return d.fields(n, "guards.approvals", map[string]func(*yaml.Node) error{
		"github": func(v *yaml.Node) error {
			a.Pos = map[string]Pos{}
			return d.fields(v, "guards.approvals.github", map[string]func(*yaml.Node) error{
				"codeOwners": func(v *yaml.Node) error {
					a.Pos["codeOwners"] = at(deref(v))
					var err error
					a.CodeOwners, err = d.boolean(v, "guards.approvals.github.codeOwners")
					return err
				},
				"labels": func(v *yaml.Node) error {
					a.Pos["labels"] = at(deref(v))
					var err error
					a.Labels, err = d.strList(v, "guards.approvals.github.labels")
					return err
				},
			})
		},
	})
}

// rules reads a list of rules.
func (d decoder) rules(n *yaml.Node, where string) ([]Rule, error) {
	n = deref(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "%s: want a list of rules, got %s", where, kindName(n))
	}
	var out []Rule
	for i, e := range n.Content {
		r, err := d.rule(deref(e), fmt.Sprintf("%s[%d]", where, i))
		if err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, nil
}

// rule reads one rule.
func (d decoder) rule(n *yaml.Node, where string) (Rule, error) {
	if n.Kind != yaml.MappingNode {
		return Rule{}, d.errorf(n, "%s: want a rule (a mapping with name, expression, outcome...), got %s", where, kindName(n))
	}
	r := Rule{File: d.file, At: at(n), Pos: map[string]Pos{}}
	str := func(key string, dst *string) func(*yaml.Node) error {
		return func(v *yaml.Node) error {
			s, err := d.str(v, where+"."+key)
			*dst = s
			r.Pos[key] = d.textPos(deref(v), n.Column)
			if deref(v).Style == yaml.FoldedStyle {
				r.Pos[key+FoldedSuffix] = r.Pos[key]
			}
			return err
		}
	}
	var scope, outcome string
	err := d.fields(n, where, map[string]func(*yaml.Node) error{
		"name":              str("name", &r.Name),
		"scope":             str("scope", &scope),
		"expression":        str("expression", &r.Expression),
		"outcome":           str("outcome", &outcome),
		"message":           str("message", &r.Message),
		"messageExpression": str("messageExpression", &r.MessageExpression),
	})
	if err != nil {
		return Rule{}, err
	}
	r.Scope, r.Outcome = Scope(scope), Outcome(outcome)
	switch {
	case r.Name == "":
		return Rule{}, d.errorf(n, "%s: a rule needs a name (which --approve NAME=REASON uses)", where)
	case r.Expression == "":
		return Rule{}, d.errorf(n, "%s: rule %s needs an expression: CEL that is true when the rule applies", where, r.Name)
	}
	return r, nil
}

// textPos is where the text of scalar n starts (yamlnode.TextPos).
func (d decoder) textPos(n *yaml.Node, keyCol int) Pos {
	line, col := yamlnode.TextPos(n, keyCol, d.data)
	return Pos{line, col}
}
