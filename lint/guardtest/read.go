package guardtest

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strconv"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/internal/guard"
	"github.com/kubeplan/kubeplan/manifest"
)

// Rule is the id of the problems this package reports.
const Rule = "guard-test"

// problemAt is a problem at a node of file.
func problemAt(file string, n *yaml.Node, format string, args ...any) *manifest.Problem {
	p := &manifest.Problem{File: file, Rule: Rule, Message: fmt.Sprintf(format, args...)}
	if n != nil {
		p.Pos = manifest.Pos{Line: n.Line, Col: n.Column}
	}
	return p
}

// yamlLine is the line a YAML syntax error names.
var yamlLine = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// yamlProblem is a YAML syntax error at its line.
func yamlProblem(file string, err error) *manifest.Problem {
	p := &manifest.Problem{File: file, Pos: manifest.Pos{Line: 1, Col: 1}, Rule: Rule, Message: err.Error()}
	if m := yamlLine.FindStringSubmatch(err.Error()); m != nil {
		p.Line, _ = strconv.Atoi(m[1])
		p.Message = "invalid YAML: " + m[2]
	}
	return p
}

// decodeLine is a line of yaml's unmarshal errors.
var decodeLine = regexp.MustCompile(`^\s*line (\d+): (.*)$`)

// unknownField is yaml's word for an unknown key.
var unknownField = regexp.MustCompile(`^field (\S+) not found in type \S+$`)

// decodeProblem is the first of yaml's unmarshal errors, at its line.
func decodeProblem(file string, n *yaml.Node, err error) *manifest.Problem {
	p := problemAt(file, n, "%v (see docs/guards.md, \"Testing rules\")", err)
	for _, line := range strings.Split(err.Error(), "\n") {
		if m := decodeLine.FindStringSubmatch(line); m != nil {
			p.Line, _ = strconv.Atoi(m[1])
			p.Col = 1
			msg := m[2]
			if k := unknownField.FindStringSubmatch(msg); k != nil {
				msg = fmt.Sprintf("unknown key %q", k[1])
			}
			p.Message = msg + " (see docs/guards.md, \"Testing rules\")"
			break
		}
	}
	return p
}

// readTest reads and checks one test file.
func readTest(file, root string) (*GuardTest, *yaml.Node, *manifest.Problem) {
	data, err := confine.ReadFile(file, root)
	if err != nil {
		return nil, nil, &manifest.Problem{File: file, Rule: Rule, Message: err.Error()}
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, nil, yamlProblem(file, err)
	}
	if len(doc.Content) == 0 {
		return nil, nil, &manifest.Problem{File: file, Pos: manifest.Pos{Line: 1, Col: 1}, Rule: Rule, Message: "empty test: want apiVersion kubeplan.dev/v1alpha1, kind GuardTest and cases"}
	}
	root0 := doc.Content[0]
	t := &GuardTest{}
	// Strictly: a key misspelt (chnages:) would otherwise leave a case
	// empty, and an empty case passes.
	dec := yaml.NewDecoder(bytes.NewReader(data))
	dec.KnownFields(true)
	if err := dec.Decode(t); err != nil {
		return nil, nil, decodeProblem(file, root0, err)
	}
	if t.APIVersion != "kubeplan.dev/v1alpha1" || t.Kind != "GuardTest" {
		return nil, nil, problemAt(file, root0, "want apiVersion kubeplan.dev/v1alpha1 and kind GuardTest, got %q %q", t.APIVersion, t.Kind)
	}
	if len(t.Rules) == 0 && t.Config == "" {
		return nil, nil, problemAt(file, root0, "name the rules to test: rules: (rule files) or config: (a kubeplan.yaml)")
	}
	cases := mapValue(root0, "cases")
	for i := range t.Cases {
		c := &t.Cases[i]
		n := nth(cases, i, root0)
		c.Line = n.Line
		if c.Name == "" {
			return nil, nil, problemAt(file, n, "cases[%d]: a case needs a name", i)
		}
		changes := mapValue(n, "changes")
		for j, ch := range c.Changes {
			cn := nth(changes, j, n)
			if !actions[ch.Action] {
				return nil, nil, problemAt(file, cn, "case %q: changes[%d]: action %q: want one of create, update, replace, prune, adopt, release", c.Name, j, ch.Action)
			}
			if ch.Kind == "" || ch.Name == "" {
				return nil, nil, problemAt(file, cn, "case %q: changes[%d]: a change needs kind and name", c.Name, j)
			}
		}
		verdicts := mapValue(n, "verdicts")
		for j := range c.Verdicts {
			v := &c.Verdicts[j]
			vn := nth(verdicts, j, n)
			v.Line = vn.Line
			switch {
			case v.Rule == "":
				return nil, nil, problemAt(file, vn, "case %q: verdicts[%d]: a verdict needs a rule", c.Name, j)
			case v.Outcome != guard.Deny && v.Outcome != guard.RequireApproval && v.Outcome != guard.Warn:
				return nil, nil, problemAt(file, vn, "case %q: verdicts[%d]: outcome %q: want deny, require-approval or warn", c.Name, j, v.Outcome)
			}
		}
	}
	return t, root0, nil
}

// actions are the actions a change may have.
var actions = map[string]bool{"create": true, "update": true, "replace": true, "prune": true, "adopt": true, "release": true}

func mapValue(m *yaml.Node, key string) *yaml.Node {
	if m == nil || m.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(m.Content); i += 2 {
		if m.Content[i].Value == key {
			return m.Content[i+1]
		}
	}
	return nil
}

// nth is the i-th element of the list seq, else fallback.
func nth(seq *yaml.Node, i int, fallback *yaml.Node) *yaml.Node {
	if seq != nil && seq.Kind == yaml.SequenceNode && i < len(seq.Content) {
		return seq.Content[i]
	}
	return fallback
}

// loadConfig reads what a test names: the guards: of its kubeplan.yaml
// with the rule files that names (relative to the kubeplan.yaml), then
// its own rule files (relative to the test).
func loadConfig(file, root string, t *GuardTest, doc *yaml.Node) (guard.Config, []*manifest.Problem) {
	dir := filepath.Dir(file)
	var c guard.Config
	if t.Config != "" {
		path := join(dir, t.Config)
		data, err := confine.ReadFile(path, root)
		if err != nil {
			return c, []*manifest.Problem{problemAt(file, mapValue(doc, "config"), "%v", err)}
		}
		var doc yaml.Node
		if err := yaml.Unmarshal(data, &doc); err != nil {
			return c, []*manifest.Problem{yamlProblem(path, err)}
		}
		var guards *yaml.Node
		if len(doc.Content) > 0 {
			guards = mapValue(doc.Content[0], "guards")
		}
		cfg, files, err := guard.ParseConfig(path, guards)
		if err != nil {
			return c, problems(path, err)
		}
		c = cfg
		ref := problemAt(path, mapValue(guards, "files"), "")
		for _, f := range files {
			rs, probs := readRules(join(filepath.Dir(path), f), root, ref)
			if len(probs) > 0 {
				return c, probs
			}
			c.Rules = append(c.Rules, rs...)
		}
	}
	ref := problemAt(file, mapValue(doc, "rules"), "")
	for _, f := range t.Rules {
		rs, probs := readRules(join(dir, f), root, ref)
		if len(probs) > 0 {
			return c, probs
		}
		c.Rules = append(c.Rules, rs...)
	}
	return c, nil
}

// readRules reads a rule file, or every *.yaml and *.yml of a directory
// (not below it), in name order. A file that cannot be read is a problem
// at ref, the list that names it.
func readRules(path, root string, ref *manifest.Problem) ([]guard.Rule, []*manifest.Problem) {
	fail := func(err error) []*manifest.Problem {
		p := *ref
		p.Message = err.Error()
		return []*manifest.Problem{&p}
	}
	real, err := confine.Resolve(path, root)
	if err != nil {
		return nil, fail(err)
	}
	files := []string{path}
	if fi, err := os.Stat(real); err == nil && fi.IsDir() {
		entries, err := os.ReadDir(real)
		if err != nil {
			return nil, fail(err)
		}
		files = files[:0]
		for _, e := range entries {
			if !e.IsDir() && (strings.HasSuffix(e.Name(), ".yaml") || strings.HasSuffix(e.Name(), ".yml")) {
				files = append(files, filepath.Join(path, e.Name()))
			}
		}
		sort.Strings(files)
	}
	var out []guard.Rule
	for _, f := range files {
		data, err := confine.ReadFile(f, root)
		if err != nil {
			return nil, fail(err)
		}
		rs, err := guard.ParseRules(f, data)
		if err != nil {
			return nil, problems(f, err)
		}
		out = append(out, rs...)
	}
	return out, nil
}

// join is p relative to dir; an absolute p is taken as named (and like
// any other must be inside the root).
func join(dir, p string) string {
	if filepath.IsAbs(p) {
		return p
	}
	return filepath.Join(dir, p)
}

// at matches the "file:line:col: " guard's errors start with.
var at = regexp.MustCompile(`^(.+?):(\d+):(\d+): (.*)$`)

// problems turns guard's errors (one a line) into problems at their
// positions; a line without one is a problem of file.
func problems(file string, err error) []*manifest.Problem {
	var out []*manifest.Problem
	for _, line := range strings.Split(err.Error(), "\n") {
		m := at.FindStringSubmatch(line)
		if m == nil {
			out = append(out, &manifest.Problem{File: file, Rule: Rule, Message: line})
			continue
		}
		l, _ := strconv.Atoi(m[2])
		c, _ := strconv.Atoi(m[3])
		out = append(out, &manifest.Problem{File: m[1], Pos: manifest.Pos{Line: l, Col: c}, Rule: Rule, Message: m[4]})
	}
	return out
}
