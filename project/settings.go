package project

import (
	"cmp"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/guard"
)

// resolve fills m's settings: each from m's entry, else cfg.Defaults, with
// these exceptions. Namespace is the entry's, else the namespace: field of
// the project's own kustomization, else the defaults', else "" (the
// kubeconfig context's; namespaces has those of the kustomizations
// already read, by directory). ApplySet falls back to config.DefaultApplySet.
// {name} in Namespace and ApplySet is the project's name; ClusterName is
// a logical name only (the runner maps it), ClusterAt where it is set.
// KubeVersion is left "" when neither sets it (lint
// then uses the config's top-level kubeVersion). Windows are the entry's
// windows compiled (an empty list means none), else the defaults'; nil
// when neither has any. RollOnConfigChange is the entry's, else the
// defaults', else false.
func resolve(base string, cfg *config.Config, m *member, namespaces map[string]string) error {
	var e config.Settings
	if m.entry != nil {
		e = m.entry.Settings
		m.DependsOn = m.entry.DependsOn
		m.Interval = m.entry.Interval
	}
	d := cfg.Defaults
	pick := func(a, b string) string {
		if a != "" {
			return a
		}
		return b
	}
	m.Namespace = e.Namespace
	if m.Namespace == "" && m.Kind == Kustomize {
		dir := filepath.Join(filepath.Clean(base), filepath.FromSlash(m.Path))
		ns, read := namespaces[dir]
		if !read {
			ns = readKustomization(kustomizationFile(dir)).namespace
		}
		m.Namespace = ns
	}
	m.Namespace = strings.ReplaceAll(pick(m.Namespace, d.Namespace), config.NamePlaceholder, m.Name)
	m.ApplySet = strings.ReplaceAll(pick(pick(e.ApplySet, d.ApplySet), config.DefaultApplySet), config.NamePlaceholder, m.Name)
	m.ClusterName = pick(e.Cluster, d.Cluster)
	if m.ClusterName != "" {
		m.ClusterAt = settingAt(cfg, m, "cluster")
	}
	m.KubeVersion = pick(e.KubeVersion, d.KubeVersion)
	if r := cmp.Or(e.RollOnConfigChange, d.RollOnConfigChange); r != nil {
		m.RollOnConfigChange = *r
	}
	m.Yield = cfg.ProjectYield(m.entry)
	// An entry's windows, an empty list included, replace the defaults'.
	ws := e.Windows
	if ws == nil {
		ws = d.Windows
	}
	var err error
	if m.Windows, err = guard.CompileWindows(ws); err != nil {
		return err // at the window's file:line:col
	}
	if m.Kind == Helm {
		if err := resolveHelm(base, cfg, m); err != nil {
			return err
		}
	}
	if e.ApplySet == "" && d.ApplySet == "" {
		return nil // the built-in default: plan checks a name it makes
	}
	if err := config.CheckApplySet(m.ApplySet); err != nil {
		return fmt.Errorf("%s: project %s: %w", settingAt(cfg, m, "applyset"), m.Name, err)
	}
	return nil
}

// settingAt is where m's setting key comes from: its entry, else the
// defaults, else the entry itself or the config file.
func settingAt(cfg *config.Config, m *member, key string) string {
	if m.entry != nil {
		if p, ok := m.entry.Pos[key]; ok {
			return cfg.At(p)
		}
	}
	if p, ok := cfg.Defaults.Pos[key]; ok {
		return cfg.At(p)
	}
	return entryAt(cfg, m)
}

// entryAt is where m's entry starts, or the config file.
func entryAt(cfg *config.Config, m *member) string {
	if m.entry != nil {
		return cfg.At(m.entry.At)
	}
	if cfg.File == "" {
		return m.Path
	}
	return cfg.File
}
