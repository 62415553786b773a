package project

import (
	"fmt"
	"slices"
	"strings"

	"github.com/kubeplan/kubeplan/internal/applyset"
	"github.com/kubeplan/kubeplan/internal/config"
)

// check validates the loaded projects as a whole: names are unique, every
// dependsOn names a project, dependsOn has no cycle and no two projects
// share an ApplySet (one cluster, one namespace, one parent), where they
// would prune each other's objects.
func check(cfg *config.Config, ms []member) error {
	byName := map[string]*member{}
	for i := range ms {
		m := &ms[i]
		if o, ok := byName[m.Name]; ok {
			return fmt.Errorf("%s: project name %q is also the name of %s; names must be unique", settingAt(cfg, m, "name"), m.Name, o.Path)
		}
		byName[m.Name] = m
	}
	for i := range ms {
		m := &ms[i]
		for j, dep := range m.DependsOn {
			if _, ok := byName[dep]; !ok {
				return fmt.Errorf("%s: %s dependsOn %q: no such project (there are %s)", cfg.At(m.entry.DependsPos[j]), m.Name, dep, strings.Join(names(ms), ", "))
			}
		}
	}
	if err := checkCycles(cfg, ms, byName); err != nil {
		return err
	}
	return checkSets(cfg, ms)
}

// checkCycles reports the first dependsOn cycle, in order of the projects,
// as "a -> b -> a", at the dependsOn entry that closes it.
func checkCycles(cfg *config.Config, ms []member, byName map[string]*member) error {
	const (
		unseen = iota
		active
		done
	)
	state := map[string]int{}
	var stack []string
	var visit func(m *member) error
	visit = func(m *member) error {
		state[m.Name] = active
		stack = append(stack, m.Name)
		for j, dep := range m.DependsOn {
			switch state[dep] {
			case active:
				cycle := append(slices.Clone(stack[slices.Index(stack, dep):]), dep)
				return fmt.Errorf("%s: dependsOn cycle: %s", cfg.At(m.entry.DependsPos[j]), strings.Join(cycle, " -> "))
			case unseen:
				if err := visit(byName[dep]); err != nil {
					return err
				}
			}
		}
		stack = stack[:len(stack)-1]
		state[m.Name] = done
		return nil
	}
	for i := range ms {
		if state[ms[i].Name] == unseen {
			if err := visit(&ms[i]); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkSets reports two projects with one ApplySet: the same cluster,
// namespace and parent.
func checkSets(cfg *config.Config, ms []member) error {
	seen := map[string]*member{}
	for i := range ms {
		m := &ms[i]
		parent := m.ApplySet
		if p, err := applyset.ParseParentFlag(m.ApplySet, "default"); err == nil {
			parent = p.Kind + "/" + p.Name // configmap/x and cm/x are one parent
		}
		key := m.Cluster() + "\x00" + m.Namespace + "\x00" + parent
		if o, ok := seen[key]; ok {
			return fmt.Errorf("%s: projects %s and %s share the ApplySet %s in %s of %s, and would prune each other's objects; give one its own applyset or namespace",
				settingAt(cfg, m, "applyset"), o.Name, m.Name, m.ApplySet, namespaceName(m.Namespace), clusterName(m.Project))
		}
		seen[key] = m
	}
	return nil
}

// clusterName names p's cluster in messages.
func clusterName(p Project) string {
	if c := p.Cluster(); c != "" {
		return fmt.Sprintf("cluster %q", c)
	}
	return "the current context's cluster"
}

// namespaceName names a namespace setting in messages.
func namespaceName(ns string) string {
	if ns != "" {
		return fmt.Sprintf("namespace %q", ns)
	}
	return "the context's namespace"
}

// names are the projects' names, sorted.
func names(ms []member) []string {
	out := make([]string, len(ms))
	for i, m := range ms {
		out[i] = m.Name
	}
	slices.Sort(out)
	return out
}
