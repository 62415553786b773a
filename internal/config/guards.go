package config

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	yaml "go.yaml.in/yaml/v3"

	"github.com/kubeplan/kubeplan/internal/confine"
	"github.com/kubeplan/kubeplan/internal/guard"
)

// guards reads the top-level guards: key (guard.ParseConfig reads its
// content) and where each entry of its files: list is.
func (d decoder) guards(n *yaml.Node, c *Config) error {
	var err error
	c.Guards, c.GuardFiles, err = guard.ParseConfig(d.file, n)
	if err != nil {
		return err
	}
	c.GuardFilesPos = guardFilesPos(deref(n), len(c.GuardFiles))
	return nil
}

// guardFilesPos is where each item of n's files: list is, when the list
// holds the count entries ParseConfig returned; nil otherwise (messages
// then name the file).
func guardFilesPos(n *yaml.Node, count int) []Pos {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value != "files" {
			continue
		}
		l := deref(n.Content[i+1])
		if l.Kind != yaml.SequenceNode || len(l.Content) != count {
			return nil
		}
		pos := make([]Pos, count)
		for j, item := range l.Content {
			pos[j] = at(deref(item))
		}
		return pos
	}
	return nil
}

// readGuardFiles reads the rule files guards.files names, in order, and
// appends their rules to Guards.Rules: a file, or a directory's *.yaml
// and *.yml files (not its subdirectories) in name order. Each is read
// through internal/confine, inside Root when there is one (CheckPaths has
// refused an entry that leads out; a link in a directory is refused
// here), a regular file of at most MaxBytes.
func (c *Config) readGuardFiles() error {
	for i, entry := range c.GuardFiles {
		where := c.File
		if i < len(c.GuardFilesPos) {
			where = c.At(c.GuardFilesPos[i])
		}
		files, err := ruleFiles(c.Resolve(entry), c.Root)
		if err != nil {
			return fmt.Errorf("%s: guards.files entry %q: %w", where, entry, err)
		}
		for _, f := range files {
			data, err := confine.ReadFileLimit(f, c.Root, MaxBytes)
			if err != nil {
				return fmt.Errorf("%s: guards.files entry %q: %w", where, entry, err)
			}
			rules, err := guard.ParseRules(f, data)
			if err != nil {
				return err
			}
			c.Guards.Rules = append(c.Guards.Rules, rules...)
		}
	}
	return nil
}

// ruleFiles is path when it is a file, else the rule files of the
// directory it is, sorted; a directory without any is an error, as a
// missing path is.
func ruleFiles(path, root string) ([]string, error) {
	real, err := confine.Resolve(path, root)
	if err != nil {
		return nil, err
	}
	fi, err := os.Stat(real)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if !fi.IsDir() {
		return []string{path}, nil
	}
	des, err := os.ReadDir(real)
	if err != nil {
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	var out []string
	for _, de := range des {
		if name := de.Name(); !de.IsDir() && (strings.HasSuffix(name, ".yaml") || strings.HasSuffix(name, ".yml")) {
			out = append(out, filepath.Join(path, name))
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%s holds no .yaml or .yml file", path)
	}
	slices.Sort(out)
	return out, nil
}
