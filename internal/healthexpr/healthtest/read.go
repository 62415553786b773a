package healthtest

import (
	"fmt"
	"path/filepath"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/internal/healthexpr"
	"github.com/kubeplan/kubeplan/internal/yamlnode"
)

// TestFileName is the name of a health test file.
const TestFileName = "kubeplan-health-test.yaml"

// Kind is a health test file's kind:.
const Kind = "HealthTest"

// testFile is one kubeplan-health-test.yaml, read.
type testFile struct {
	file  string
	set   *healthexpr.Set
	cases []testCase
}

// testCase is one object and the outcome expected of it.
type testCase struct {
	name      string
	object    map[string]any
	expect    string
	message   string // a part of the message expected, "" for any
	line, col int    // where expect: is
}

// The outcomes a case may expect, as written.
var expects = map[string]string{"current": healthexpr.Current, "inProgress": healthexpr.InProgress, "failed": healthexpr.Failed}

// read reads and compiles one test file; an error is at its
// file:line:col.
func read(file, root string) (*testFile, error) {
	data, err := confine.ReadFileLimit(file, root, config.MaxBytes)
	if err != nil {
		return nil, err
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("%s:1:1: %w", file, err)
	}
	d := yamlnode.Decoder{File: file, Doc: "docs/health.md"}
	if len(doc.Content) == 0 {
		return nil, fmt.Errorf("%s:1:1: empty test: want kind %s and cases", file, Kind)
	}
	top := doc.Content[0]
	t := &testFile{file: file}
	var kind, cfg string
	var crdPaths []string
	var rules []healthexpr.Rule
	haveRules := false
	err = d.Fields(top, "the health test", map[string]func(*yaml.Node) error{
		"apiVersion": func(v *yaml.Node) error { _, err := d.Str(v, "apiVersion"); return err },
		"kind":       func(v *yaml.Node) error { var err error; kind, err = d.Str(v, "kind"); return err },
		"config":     func(v *yaml.Node) error { var err error; cfg, err = d.Str(v, "config"); return err },
		"rules": func(v *yaml.Node) error {
			var err error
			haveRules = true
			rules, err = healthexpr.Parse(file, data, v, "rules")
			return err
		},
		"cases": func(v *yaml.Node) error { var err error; t.cases, err = readCases(d, v); return err },
		"crds": func(v *yaml.Node) error {
			list, _, err := d.StrList(v, "crds")
			for _, p := range list {
				crdPaths = append(crdPaths, filepath.Join(filepath.Dir(file), p))
			}
			return err
		},
	})
	if err != nil {
		return nil, err
	}
	switch {
	case kind != Kind:
		return nil, d.Errorf(top, "kind is %q: want %s", kind, Kind)
	case haveRules && cfg != "":
		return nil, d.Errorf(top, "rules and config are both set: test the rules written here, or those of the kubeplan.yaml config names")
	case len(t.cases) == 0:
		return nil, d.Errorf(top, "no cases: write cases, each an object and the outcome expected (current, inProgress or failed)")
	}
	if cfg != "" {
		path := filepath.Join(filepath.Dir(file), cfg)
		cdata, err := confine.ReadFileLimit(path, root, config.MaxBytes)
		if err != nil {
			return nil, fmt.Errorf("%s: config %q: %w", file, cfg, err)
		}
		c, err := config.Parse(path, cdata)
		if err != nil {
			return nil, err
		}
		t.set = c.Health
		crdPaths = append(crdPaths, c.CRDPaths()...)
	} else if t.set, err = healthexpr.Compile(rules); err != nil {
		return nil, err
	}
	// the fields the rules select, against their kinds' CRDs
	crds, err := readCRDs(crdPaths, root)
	if err != nil {
		return nil, fmt.Errorf("%s: crds: %w", file, err)
	}
	if err := t.set.CheckCRDs(crds); err != nil {
		return nil, err
	}
	return t, nil
}

// readCases reads cases:.
func readCases(d yamlnode.Decoder, n *yaml.Node) ([]testCase, error) {
	n = yamlnode.Deref(n)
	if n.Kind != yaml.SequenceNode {
		return nil, d.Errorf(n, "cases: want a list of cases, got %s", yamlnode.KindName(n))
	}
	var out []testCase
	for i, item := range n.Content {
		where := fmt.Sprintf("cases[%d]", i)
		c := testCase{line: item.Line, col: item.Column}
		var objNode *yaml.Node
		err := d.Fields(item, where, map[string]func(*yaml.Node) error{
			"name": func(v *yaml.Node) error { var err error; c.name, err = d.Str(v, where+".name"); return err },
			"object": func(v *yaml.Node) error {
				objNode = yamlnode.Deref(v)
				return objNode.Decode(&c.object)
			},
			"expect": func(v *yaml.Node) error {
				var err error
				c.expect, err = d.Str(v, where+".expect")
				c.line, c.col = yamlnode.Deref(v).Line, yamlnode.Deref(v).Column
				if _, ok := expects[c.expect]; err == nil && !ok {
					err = d.Errorf(yamlnode.Deref(v), "%s.expect: %q: want current, inProgress or failed", where, c.expect)
				}
				return err
			},
			"message": func(v *yaml.Node) error { var err error; c.message, err = d.Str(v, where+".message"); return err },
		})
		switch {
		case err != nil:
			return nil, err
		case objNode == nil || c.object == nil:
			return nil, d.Errorf(item, "%s: object is missing: write the object with its status", where)
		case c.expect == "":
			return nil, d.Errorf(item, "%s: expect is missing: want current, inProgress or failed", where)
		}
		out = append(out, c)
	}
	return out, nil
}
