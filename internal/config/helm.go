package config

import (
	"fmt"
	"strings"

	yaml "go.yaml.in/yaml/v3"
)

// Helm is a project entry's helm: key, how its chart is rendered.
type Helm struct {
	// Chart is the chart directory or .tgz, relative to Dir; "" means the
	// entry's path.
	Chart string
	// Values are values files relative to Dir, merged in order over the
	// chart's values.yaml; ValuesPos says where each is.
	Values    []string
	ValuesPos []Pos
	// Set are "a.b=c" values set on top (helm's --set), written as a
	// mapping or a list.
	Set []string
	// ReleaseName is .Release.Name; "" means the project's name.
	ReleaseName string
	// SkipCRDs leaves out the CustomResourceDefinitions of the chart's and
	// its subcharts' crds/ (helm install --skip-crds); they are rendered,
	// applied first, by default.
	SkipCRDs bool
	// IncludeCRDs is accepted for compatibility with kubeplan before CRDs
	// were rendered by default, and changes nothing: true is the default,
	// and false does not skip them (skipCRDs: true does). It may not be
	// true together with skipCRDs: true.
	IncludeCRDs bool
	// Pos says where each key that was set is ("chart", "values", ...),
	// and "helm" where the mapping is.
	Pos map[string]Pos
}

// helm reads an entry's helm: mapping.
func (d decoder) helm(n *yaml.Node, where string) (*Helm, error) {
	h := &Helm{Pos: map[string]Pos{"helm": at(deref(n))}}
	where += ".helm"
	var err error
	str := func(key string, dst *string) func(*yaml.Node) error {
		return func(v *yaml.Node) error {
			*dst, err = d.str(v, where+"."+key)
			h.Pos[key] = at(deref(v))
			return err
		}
	}
	err = d.fields(n, where, map[string]func(*yaml.Node) error{
		"chart":       str("chart", &h.Chart),
		"releaseName": str("releaseName", &h.ReleaseName),
		"values": func(v *yaml.Node) error {
			h.Values, h.ValuesPos, err = d.strList(v, where+".values")
			h.Pos["values"] = at(deref(v))
			return err
		},
		"set": func(v *yaml.Node) error {
			h.Set, err = d.helmSet(v, where+".set")
			h.Pos["set"] = at(deref(v))
			return err
		},
		"includeCRDs": func(v *yaml.Node) error {
			h.IncludeCRDs, err = d.boolean(v, where+".includeCRDs")
			h.Pos["includeCRDs"] = at(deref(v))
			return err
		},
		"skipCRDs": func(v *yaml.Node) error {
			h.SkipCRDs, err = d.boolean(v, where+".skipCRDs")
			h.Pos["skipCRDs"] = at(deref(v))
			return err
		},
	})
	if err != nil {
		return nil, err
	}
	if h.SkipCRDs && h.IncludeCRDs {
		return nil, fmt.Errorf("%s: %s: skipCRDs: true contradicts includeCRDs: true (CRDs are included by default: drop includeCRDs)",
			d.at(h.Pos["includeCRDs"]), where)
	}
	return h, nil
}

// helmSet reads set: a mapping of dotted key to scalar value, or a list
// of "key=value"; both become "key=value" in file order.
func (d decoder) helmSet(n *yaml.Node, where string) ([]string, error) {
	n = deref(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind == yaml.MappingNode {
		var out []string
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			v, err := d.str(n.Content[i+1], where+"."+k.Value)
			if err != nil {
				return nil, err
			}
			if k.Kind != yaml.ScalarNode || k.Value == "" {
				return nil, d.errorf(k, "%s: want a key such as image.tag", where)
			}
			out = append(out, k.Value+"="+v)
		}
		return out, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, d.errorf(n, "%s: want a mapping of key to value or a list of \"key=value\", got %s", where, kindName(n))
	}
	out, pos, err := d.strList(n, where)
	if err != nil {
		return nil, err
	}
	for i, s := range out {
		if k, _, ok := strings.Cut(s, "="); !ok || k == "" {
			return nil, fmt.Errorf("%s: %s[%d] %q: want \"key=value\"", d.at(pos[i]), where, i, s)
		}
	}
	return out, nil
}

// at is "file:line:col" of p.
func (d decoder) at(p Pos) string { return fmt.Sprintf("%s:%d:%d", d.file, p.Line, p.Col) }
