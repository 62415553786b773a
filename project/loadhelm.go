package project

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"

	"github.com/kubeplan/kubeplan/internal/config"
	"github.com/kubeplan/kubeplan/internal/confine"
)

// entryProject is the project a literal entry names, its paths relative
// to base (cfg.Dir): a chart when the entry's path is one or its helm:
// names one, else what At finds.
func entryProject(base string, cfg *config.Config, e *config.Entry, opts Options) (Project, error) {
	dir := filepath.Join(base, filepath.FromSlash(e.Path))
	if e.Helm == nil || e.Helm.Chart == "" && !IsChartArchive(e.Path) {
		p, err := At(base, dir, opts)
		if err == nil && e.Helm != nil && p.Kind != Helm {
			err = fmt.Errorf("helm: is set, but %s holds no Chart.yaml (name the chart with helm.chart)", e.Path)
		}
		return p, err
	}
	chart := dir
	if e.Helm.Chart != "" {
		chart = filepath.Join(base, filepath.FromSlash(e.Helm.Chart))
		abs := filepath.Join(cfg.Dir, filepath.FromSlash(e.Helm.Chart))
		if repo := config.RepoRoot(cfg.Dir); !inRepo(repo, abs) {
			return Project{}, fmt.Errorf("helm.chart %s is outside the repository %s", e.Helm.Chart, repo)
		}
	}
	if err := chartAt(chart); err != nil {
		return Project{}, err
	}
	if _, err := os.Stat(dir); err != nil {
		return Project{}, errors.New("no such directory")
	}
	p := helmProject(base, dir, chart)
	p.Name = DefaultName(base, p.Path)
	return p, nil
}

// resolveHelm fills a helm project's settings from its entry's helm:
// values files (relative to cfg.Dir, which must exist in the repository;
// they join its Files), set, skipCRDs and releaseName (default: the
// project's name).
func resolveHelm(base string, cfg *config.Config, m *member) error {
	h := HelmSettings{Chart: m.Path}
	if m.Helm != nil {
		h = *m.Helm
	}
	if m.entry != nil && m.entry.Helm != nil {
		eh := m.entry.Helm
		h.Set, h.ReleaseName, h.SkipCRDs = slices.Clone(eh.Set), eh.ReleaseName, eh.SkipCRDs
		repo := config.RepoRoot(cfg.Dir)
		for j, v := range eh.Values {
			abs := filepath.Join(cfg.Dir, filepath.FromSlash(v))
			where := fmt.Sprintf("%s: project %s: helm.values %s", cfg.At(eh.ValuesPos[j]), m.Name, v)
			if !inRepo(repo, abs) {
				return fmt.Errorf("%s: outside the repository %s (name a values file inside it)", where, repo)
			}
			if fi, err := os.Stat(abs); errors.Is(err, fs.ErrNotExist) {
				return fmt.Errorf("%s: no such file", where)
			} else if err != nil {
				return fmt.Errorf("%s: %w", where, err)
			} else if fi.IsDir() {
				return fmt.Errorf("%s: a directory, not a values file", where)
			}
			h.Values = append(h.Values, relSlash(mustAbs(base), abs))
		}
	}
	if h.ReleaseName == "" {
		h.ReleaseName = m.Name
	}
	m.Helm = &h
	m.Files = slices.Compact(slices.Sorted(slices.Values(slices.Concat(m.Files, h.Values))))
	return nil
}

// ownValues drops from each helm project's Files the values files that
// other projects of its chart read and it does not: a change to
// values-prod.yaml is shop-prod's, not shop-dev's.
func ownValues(ms []member) {
	byChart := map[string]map[string]bool{}
	for _, m := range ms {
		if m.Helm == nil {
			continue
		}
		if byChart[m.Helm.Chart] == nil {
			byChart[m.Helm.Chart] = map[string]bool{}
		}
		for _, v := range m.Helm.Values {
			byChart[m.Helm.Chart][v] = true
		}
	}
	for i := range ms {
		m := &ms[i]
		if m.Helm == nil {
			continue
		}
		others := byChart[m.Helm.Chart]
		m.Files = slices.DeleteFunc(slices.Clone(m.Files), func(f string) bool {
			return others[f] && !slices.Contains(m.Helm.Values, f)
		})
	}
}

// mustAbs is p made absolute (p itself when that fails).
func mustAbs(p string) string {
	if a, err := filepath.Abs(p); err == nil {
		return a
	}
	return p
}

// inRepo reports whether abs, as named and with its links followed, is in
// repo's tree (internal/confine: a link to nowhere outside is outside
// too, so the answer never tells whether a file outside exists).
func inRepo(repo, abs string) bool {
	real, err := confine.RealDir(repo)
	if err != nil {
		return false
	}
	return inTree(repo, abs) && confine.Within(abs, real) == nil
}
